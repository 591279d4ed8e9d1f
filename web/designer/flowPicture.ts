import type { FlowEdge, FlowNode, NodeKind } from '../../shared/schema.ts';
import { labelBox, labelSize, pickLabelPlace, type Rect } from './edgeGeometry.ts';
import { routeFlow, type MeasuredNode } from './flowRoutes.ts';
import { edgeLabelText, edgeTriggerKind } from './edgeLabel.ts';
import { describeTrigger, listIds, nodeLabel } from './describeNode.ts';
import { KIND_NAMES } from './kinds.ts';

export type { MeasuredNode };

/** The colours of a picture, read from the theme when it is drawn. */
export interface PicturePalette {
  background: string;
  node: string;
  text: string;
  muted: string;
  border: string;
  edge: string;
  loop: string;
  kinds: Readonly<Record<NodeKind, string>>;
}

const PADDING = 24;
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

const xml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\p{Cc}/gu, '');
const f = (n: number) => String(Math.round(n * 10) / 10);

/** Cuts a text to what fits in a width at a font size (an estimate: the picture is not measured). */
function fit(text: string, width: number, size: number): string {
  const max = Math.max(1, Math.floor(width / (size * 0.58)));
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The lines a node's body shows in the picture, as the canvas shows them. */
function bodyLines(node: FlowNode): string[] {
  switch (node.kind) {
    case 'work':
      return Object.entries(node.set ?? {}).map(([path, expr]) => `${path} ← ${expr}`);
    case 'join':
      return [`waits for ${listIds(node.depends ?? [])}`];
    case 'subflow':
      return [`calls ${node.flow || '(no flow)'}`];
    case 'end':
      return node.terminate ? ['ends the process'] : [];
    default:
      return [];
  }
}

function drawNode(m: MeasuredNode, palette: PicturePalette): string {
  const { node, rect } = m;
  const kind = palette.kinds[node.kind];
  const label = nodeLabel(node);
  const inner = rect.width - 24;
  const x = rect.x + 14;
  const parts = [
    `<g>`,
    `<rect x="${f(rect.x)}" y="${f(rect.y)}" width="${f(rect.width)}" height="${f(rect.height)}" rx="8" fill="${palette.node}" stroke="${palette.border}"/>`,
    `<rect x="${f(rect.x)}" y="${f(rect.y)}" width="4" height="${f(rect.height)}" rx="2" fill="${kind}"/>`,
    `<text x="${f(x)}" y="${f(rect.y + 18)}" font-size="11" font-weight="700" fill="${kind}">${xml(KIND_NAMES[node.kind].toUpperCase())}</text>`,
    `<text x="${f(x)}" y="${f(rect.y + 36)}" font-size="14" font-weight="600" fill="${palette.text}">${xml(fit(label ?? node.id, inner, 14))}</text>`,
  ];
  let y = rect.y + 36;
  if (label !== undefined) {
    y += 16;
    parts.push(
      `<text x="${f(x)}" y="${f(y)}" font-size="11" font-family="${MONO}" fill="${palette.muted}">${xml(fit(node.id, inner, 11))}</text>`,
    );
  }
  for (const line of bodyLines(node)) {
    if (y + 18 > rect.y + rect.height - 4) break;
    y += 18;
    parts.push(
      `<text x="${f(x)}" y="${f(y)}" font-size="11" font-family="${MONO}" fill="${palette.text}">${xml(fit(line, inner, 11))}</text>`,
    );
  }
  if (node.kind === 'continue-after') {
    // Each trigger's row beside its own handle, so its edges leave from it.
    for (const t of node.on) {
      const at = m.sources.find((s) => s.id === `trigger:${t.id}`)?.at;
      if (!at) continue;
      const d = describeTrigger(t);
      parts.push(
        `<text x="${f(x)}" y="${f(at.y + 4)}" font-size="11" fill="${palette.text}">${xml(fit(`${d.text} · ${t.id}`, inner, 11))}</text>`,
      );
    }
  }
  parts.push('</g>');
  return parts.join('');
}

/**
 * The picture of a flow's design as SVG, drawn from its geometry (not from the page): every node
 * with its kind, title and fields, every edge on the same route the canvas draws (loops round
 * their nodes, parallel edges apart) with its arrowhead and label. No run state is drawn.
 */
export function flowSvg(
  measured: readonly MeasuredNode[],
  edges: readonly FlowEdge[],
  closing: ReadonlyMap<string, { depth: number; spans: readonly string[] }>,
  palette: PicturePalette,
): string {
  const rects = measured.map((m) => m.rect);
  const boxes: Rect[] = [...rects];
  const drawn: string[] = [];
  const labels: string[] = [];
  for (const { edge, from, loop, route } of routeFlow(measured, edges, closing)) {
    const colour = loop ? palette.loop : palette.edge;
    drawn.push(
      `<path d="${route.path}" fill="none" stroke="${colour}" stroke-width="${loop ? 2 : 1.75}"${loop ? ' stroke-dasharray="7 4"' : ''} marker-end="url(#${loop ? 'loop' : 'arrow'})"/>`,
    );
    const text = edgeLabelText(edge, {
      kind: edgeTriggerKind(edge, from.node),
      loop,
    });
    for (const p of [...route.labelAt, ...route.points])
      boxes.push({ x: p.x - 1, y: p.y - 1, width: 2, height: 2 });
    if (!text) continue;
    const size = labelSize(text);
    const at = route.labelAt[pickLabelPlace(route.labelAt, size, rects)]!;
    const box = labelBox(at, size);
    boxes.push(box);
    labels.push(
      `<g><rect x="${f(box.x)}" y="${f(box.y)}" width="${f(box.width)}" height="${f(box.height)}" rx="4" fill="${palette.node}" stroke="${loop ? palette.loop : palette.border}"/><text x="${f(at.x)}" y="${f(at.y + 4)}" font-size="12" text-anchor="middle" fill="${palette.text}">${xml(text)}</text></g>`,
    );
  }
  const left = Math.min(...boxes.map((b) => b.x), 0) - PADDING;
  const top = Math.min(...boxes.map((b) => b.y), 0) - PADDING;
  const right = Math.max(...boxes.map((b) => b.x + b.width), 0) + PADDING;
  const bottom = Math.max(...boxes.map((b) => b.y + b.height), 0) + PADDING;
  const [w, h] = [right - left, bottom - top];
  const marker = (id: string, colour: string) =>
    `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${colour}"/></marker>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${f(w)}" height="${f(h)}" viewBox="${f(left)} ${f(top)} ${f(w)} ${f(h)}" font-family="${FONT}">`,
    `<defs>${marker('arrow', palette.edge)}${marker('loop', palette.loop)}</defs>`,
    `<rect x="${f(left)}" y="${f(top)}" width="${f(w)}" height="${f(h)}" fill="${palette.background}"/>`,
    ...drawn,
    ...measured.map((m) => drawNode(m, palette)),
    ...labels,
    '</svg>',
  ].join('\n');
}

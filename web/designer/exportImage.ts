import type { InternalNode } from '@xyflow/react';
import type { FlowEdge, NodeKind } from '../../shared/schema.ts';
import { KIND_NAMES } from './kinds.ts';
import type { CanvasNode } from './canvasTypes.ts';
import type { ClosingEdge } from './designerStore.ts';
import { flowSvg, type MeasuredNode, type PicturePalette } from './flowPicture.ts';

/** What a node never drawn yet (off screen, the canvas draws only what is in view) is taken as. */
const UNMEASURED = { width: 168, height: 84 };

/**
 * A node's box and handle points as the canvas measured them (React Flow's internals); for one
 * not measured, where its handles would be.
 */
export function measuredNode(n: InternalNode<CanvasNode>): MeasuredNode {
  const { x, y } = n.internals.positionAbsolute;
  const bounds = n.internals.handleBounds;
  const node = n.data.node;
  if (!n.measured.width || !bounds) {
    const rows = node.kind === 'continue-after' ? node.on : [];
    const height = Math.max(UNMEASURED.height, 64 + rows.length * 24);
    const right = x + UNMEASURED.width;
    return {
      node,
      rect: { x, y, ...UNMEASURED, height },
      sources:
        node.kind === 'end'
          ? []
          : [
              { id: null, at: { x: right, y: y + (rows.length > 0 ? 16 : height / 2) } },
              ...rows.map((t, i) => ({
                id: `trigger:${t.id}`,
                at: { x: right, y: y + 68 + i * 24 },
              })),
            ],
      target: node.kind === 'start' ? undefined : { x, y: y + height / 2 },
    };
  }
  const target = bounds.target?.[0];
  return {
    node,
    rect: { x, y, width: n.measured.width, height: n.measured.height ?? 0 },
    // Handles on the right: an edge leaves from the middle of their right side.
    sources: (bounds.source ?? []).map((h) => ({
      id: h.id ?? null,
      at: { x: x + h.x + h.width, y: y + h.y + h.height / 2 },
    })),
    target: target ? { x: x + target.x, y: y + target.y + target.height / 2 } : undefined,
  };
}

/** The picture's colours: the theme's, as the page resolves its variables now. */
export function themePalette(): PicturePalette {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const kinds = Object.fromEntries(
    (Object.keys(KIND_NAMES) as NodeKind[]).map((k) => [k, v(`--wf-kind-${k}`, '#2f5fd0')]),
  ) as Record<NodeKind, string>;
  return {
    background: v('--wf-node-bg', '#ffffff'),
    node: v('--wf-node-bg', '#ffffff'),
    text: v('--wf-node-text', '#1d2330'),
    muted: v('--wf-node-muted', '#5a6272'),
    border: v('--wf-node-border', '#d8dce4'),
    edge: v('--wf-edge', '#5a6272'),
    loop: v('--wf-loop', '#b45309'),
    kinds,
  };
}

/** Draws an SVG onto a canvas at twice its size and returns it as a PNG data URL. */
async function svgToPng(svg: string): Promise<string> {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth * 2;
  canvas.height = image.naturalHeight * 2;
  const context = canvas.getContext('2d')!;
  context.scale(2, 2);
  context.drawImage(image, 0, 0);
  return canvas.toDataURL('image/png');
}

/**
 * The open flow's design as a PNG or SVG picture, for documents and reviews, drawn from the
 * flow's geometry (flowSvg): every edge and label, no run state.
 */
export async function flowPicture(
  kind: 'png' | 'svg',
  nodes: readonly InternalNode<CanvasNode>[],
  edges: readonly FlowEdge[],
  closing: ReadonlyMap<string, ClosingEdge>,
): Promise<string> {
  const svg = flowSvg(nodes.map(measuredNode), edges, closing, themePalette());
  if (kind === 'svg') return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  return svgToPng(svg);
}

/** Offers a data URL as a download. */
export function downloadDataUrl(fileName: string, dataUrl: string): void {
  const a = document.createElement('a');
  a.href = dataUrl;
  a.download = fileName;
  a.click();
}

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Flow } from '../../shared/schema.ts';
import { analyzeLoops } from '../../shared/loops.ts';
import { layoutDrawing } from './autoLayout.ts';
import { labelBox, labelSize, pickLabelPlace } from './edgeGeometry.ts';
import { edgeLabelText } from './edgeLabel.ts';
import { pathPoints, polylineCrossesRect } from './edgeRouting.ts';
import { toCanvas } from './flowCanvas.ts';
import { routeFlow, type MeasuredNode } from './flowRoutes.ts';
import { closingEdges } from './validation.ts';

const EXAMPLES = new URL('../../examples/', import.meta.url);

/** Every flow of the bundled examples, by file and id. */
function exampleFlows(): { name: string; flow: Flow }[] {
  return readdirSync(EXAMPLES)
    .filter((f) => f.endsWith('.flow.json') || f.endsWith('.flows.json'))
    .flatMap((file) => {
      const parsed = JSON.parse(readFileSync(new URL(file, EXAMPLES), 'utf8')) as {
        flows?: Flow[];
      };
      const flows = parsed.flows ?? [parsed as Flow];
      return flows.map((flow) => ({ name: `${file} ${flow.id}`, flow }));
    });
}

/**
 * A node's box and handles as the canvas draws them, near enough: 170 wide, a continue-after a
 * row taller per trigger, its triggers' handles one a row (as exportImage.ts estimates them).
 */
function measure(flow: Flow, at: ReadonlyMap<string, { x: number; y: number }>): MeasuredNode[] {
  return flow.nodes.map((node) => {
    const { x, y } = at.get(node.id)!;
    const rows = node.kind === 'continue-after' ? node.on : [];
    const height = Math.max(90, 64 + rows.length * 24);
    return {
      node,
      rect: { x, y, width: 170, height },
      sources:
        node.kind === 'end'
          ? []
          : [
              { id: null, at: { x: x + 170, y: y + (rows.length > 0 ? 16 : height / 2) } },
              ...rows.map((t, i) => ({
                id: `trigger:${t.id}`,
                at: { x: x + 170, y: y + 68 + i * 24 },
              })),
            ],
      target: node.kind === 'start' ? undefined : { x, y: y + height / 2 },
    };
  });
}

describe('after auto-layout, no edge of an example crosses a node (issue 26, point 7)', () => {
  for (const { name, flow } of exampleFlows())
    it(`${name}: every edge passes round the nodes it does not join, every label off them`, async () => {
      const drawn = toCanvas(flow);
      const sized = measure(flow, new Map(flow.nodes.map((n) => [n.id, { x: 0, y: 0 }])));
      const nodes = drawn.nodes.map((n, i) => ({
        ...n,
        measured: { width: sized[i]!.rect.width, height: sized[i]!.rect.height },
      }));
      const laid = await layoutDrawing(nodes, drawn.edges, analyzeLoops(flow).closingEdges);
      const measured = measure(flow, new Map(laid.map((n) => [n.id, n.position])));
      const routed = routeFlow(measured, flow.edges, closingEdges(flow));
      expect(routed).toHaveLength(flow.edges.length);
      const rects = measured.map((m) => m.rect);
      for (const { edge, route, loop } of routed) {
        const points = pathPoints(route.path);
        for (const m of measured) {
          if (m.node.id === edge.from || m.node.id === edge.to) continue;
          expect(
            polylineCrossesRect(points, m.rect),
            `${edge.id} (${edge.from} → ${edge.to}) crosses ${m.node.id}`,
          ).toBe(false);
        }
        const text = edgeLabelText(edge, { loop });
        if (!text) continue;
        const size = labelSize(text);
        const label = labelBox(route.labelAt[pickLabelPlace(route.labelAt, size, rects)]!, size);
        for (const m of measured)
          expect(
            label.x < m.rect.x + m.rect.width &&
              m.rect.x < label.x + label.width &&
              label.y < m.rect.y + m.rect.height &&
              m.rect.y < label.y + label.height,
            `${edge.id}'s label is under ${m.node.id}`,
          ).toBe(false);
      }
    });
});

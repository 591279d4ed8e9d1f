import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeLoops } from '../../shared/loops.ts';
import type { Flow } from '../../shared/schema.ts';
import { layoutDrawing } from './autoLayout.ts';
import { toCanvas } from './flowCanvas.ts';

const SIZE = { width: 170, height: 90 };

/** The daily loop example as the canvas holds it, every node measured the same. */
function dailyLoop() {
  const file = JSON.parse(
    readFileSync(new URL('../../examples/nightly-refresh.flows.json', import.meta.url), 'utf8'),
  ) as { flows: Flow[] };
  const flow = file.flows[0]!;
  // Laid out badly on purpose: right to left, as the old layout did.
  const drawn = toCanvas({
    ...flow,
    nodes: flow.nodes.map((n, i) => ({ ...n, position: { x: -i * 200, y: 0 } })),
  });
  const nodes = drawn.nodes.map((n) => ({ ...n, measured: SIZE }));
  return { flow, nodes, edges: drawn.edges };
}

describe('auto-layout understands loops', () => {
  it('lays the daily loop left to right from start, its closing edge a feedback edge', async () => {
    const { flow, nodes, edges } = dailyLoop();
    const closing = analyzeLoops(flow).closingEdges;
    expect([...closing]).toEqual(['e8']);
    const laid = await layoutDrawing(nodes, edges, closing);
    const at = new Map(laid.map((n) => [n.id, n.position]));
    for (const n of laid)
      if (n.id !== 'start') expect(at.get('start')!.x).toBeLessThan(n.position.x);
    // Every edge but the closing one points right.
    for (const e of flow.edges)
      if (!closing.has(e.id)) expect(at.get(e.to)!.x).toBeGreaterThan(at.get(e.from)!.x);
    expect(at.get('done')!.x).toBeGreaterThan(at.get('sleep')!.x);
    // No two nodes overlap.
    for (const a of laid)
      for (const b of laid) {
        if (a === b) continue;
        const apart =
          a.position.x + SIZE.width <= b.position.x ||
          b.position.x + SIZE.width <= a.position.x ||
          a.position.y + SIZE.height <= b.position.y ||
          b.position.y + SIZE.height <= a.position.y;
        expect(apart, `${a.id} and ${b.id} overlap`).toBe(true);
      }
  });

  it('keeps a continue-after’s trigger edges in the order of its triggers, top to bottom', async () => {
    const flow: Flow = {
      format: 'flow/1',
      id: 't',
      nodes: [
        { id: 'start', kind: 'start' },
        {
          id: 'w',
          kind: 'continue-after',
          on: [
            { id: 'first', timer: 'PT1H' },
            { id: 'second', event: 'x' },
            { id: 'third', timer: 'PT2H' },
          ],
        },
        { id: 'c', kind: 'end' },
        { id: 'a', kind: 'end' },
        { id: 'b', kind: 'end' },
      ],
      edges: [
        { id: 'e1', from: 'start', to: 'w' },
        { id: 'e2', from: 'w', to: 'c', trigger: 'third' },
        { id: 'e3', from: 'w', to: 'a', trigger: 'first' },
        { id: 'e4', from: 'w', to: 'b', trigger: 'second' },
      ],
    };
    const drawn = toCanvas(flow);
    const nodes = drawn.nodes.map((n) => ({ ...n, measured: SIZE }));
    const laid = await layoutDrawing(nodes, drawn.edges, new Set());
    const y = (id: string) => laid.find((n) => n.id === id)!.position.y;
    expect(y('a')).toBeLessThan(y('b'));
    expect(y('b')).toBeLessThan(y('c'));
  });
});

import { describe, expect, it } from 'vitest';
import type { CanvasEdge, CanvasNode } from '../designer/canvasTypes.ts';
import { missingNodes, MISSING_SIZE } from './missingNodes.ts';

const node = (id: string, x: number, y: number): CanvasNode =>
  ({
    id,
    type: 'work',
    position: { x, y },
    measured: { width: 170, height: 90 },
    data: { node: { id, kind: 'work' }, problems: [] },
  }) as unknown as CanvasNode;
const edge = (id: string, source: string, target: string): CanvasEdge =>
  ({ id, source, target }) as CanvasEdge;

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('placeholders for the nodes dangling edges name', () => {
  const nodes = [node('start', 0, 0), node('done', 240, 0)];
  const edges = [
    edge('e1', 'start', 'done'),
    edge('e2', 'start', 'ghost'),
    edge('e3', 'phantom', 'done'),
    edge('e4', 'start', 'ghost'),
  ];
  const placed = missingNodes(nodes, edges);

  it('makes one per missing id, whichever end it is', () => {
    expect(placed.map((p) => p.id).sort()).toEqual(['ghost', 'phantom']);
  });

  it('puts each in free space: over no node of the flow and no other placeholder', () => {
    const boxes: Box[] = [
      ...nodes.map((n) => ({ ...n.position, width: 170, height: 90 })),
      ...placed.map((p) => ({ ...p.position, ...MISSING_SIZE })),
    ];
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1)) expect(overlap(a, b)).toBe(false);
  });

  it('puts a missing source left of its target, so that its edge runs forwards', () => {
    const phantom = placed.find((p) => p.id === 'phantom')!;
    expect(phantom.position.x + MISSING_SIZE.width).toBeLessThan(240);
  });

  it('comes measured, with a handle each side, so that React Flow draws the edge to it', () => {
    for (const p of placed) {
      expect(p.measured).toEqual(MISSING_SIZE);
      expect(p.handles?.map((h) => h.type)).toEqual(['target', 'source']);
    }
  });

  it('makes none when every edge ends at a node of the flow', () => {
    expect(missingNodes(nodes, [edge('e1', 'start', 'done')])).toEqual([]);
  });
});

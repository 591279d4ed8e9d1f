import type { ReactFlowState } from '@xyflow/react';
import { describe, expect, it } from 'vitest';
import { NEW_NODE_SIZE } from '../designer/placement.ts';
import { nodeLayer, overviewBox } from './overviewLayer.ts';

type Lookup = ReactFlowState['nodeLookup'];
const lookup = (
  nodes: { id: string; x: number; y: number; w?: number; h?: number; hidden?: boolean }[],
) =>
  new Map(
    nodes.map((n) => [
      n.id,
      {
        id: n.id,
        hidden: n.hidden,
        measured: { width: n.w, height: n.h },
        internals: { positionAbsolute: { x: n.x, y: n.y } },
      },
    ]),
  ) as unknown as Lookup;

describe('the overview draws every node as one path', () => {
  it('one subpath per shown node, at its measured box, bounds around them all', () => {
    const layer = nodeLayer(
      lookup([
        { id: 'a', x: 0, y: 0, w: 100, h: 50 },
        { id: 'b', x: 300, y: 200, w: 80, h: 40 },
        { id: 'gone', x: 5000, y: 5000, w: 10, h: 10, hidden: true },
      ]),
    );

    expect(layer.path).toBe('M0,0h100v50h-100zM300,200h80v40h-80z');
    expect(layer.bounds).toEqual({ x: 0, y: 0, width: 380, height: 240 });
  });

  it('a node not measured yet (never drawn in a large flow) takes the size of a new node', () => {
    const layer = nodeLayer(lookup([{ id: 'a', x: 10, y: 20 }]));

    expect(layer.bounds).toEqual({ x: 10, y: 20, ...NEW_NODE_SIZE });
  });

  it('no nodes: an empty path and no bounds', () => {
    expect(nodeLayer(lookup([]))).toEqual({ bounds: undefined, path: '' });
  });
});

describe('the overview fits the nodes and the view together', () => {
  const element = { width: 160, height: 96 };

  it('the view inside the nodes: the nodes fill the element, centred, with a margin', () => {
    const nodes = { x: 0, y: 0, width: 1600, height: 480 };
    const box = overviewBox(nodes, { x: 100, y: 100, width: 200, height: 100 }, element);

    expect(box.scale).toBe(10);
    // 1,600 × 960 flow units for 160 × 96 pixels, the nodes' 480 centred in the 960.
    expect(box).toEqual({ x: -50, y: -290, w: 1700, h: 1060, offset: 50, scale: 10 });
  });

  it('a view beyond the nodes widens the box to hold it', () => {
    const box = overviewBox(
      { x: 0, y: 0, width: 160, height: 96 },
      { x: 160, y: 0, width: 160, height: 96 },
      element,
    );

    expect(box.scale).toBe(2);
    expect(box.x).toBeLessThanOrEqual(0);
    expect(box.x + box.w).toBeGreaterThanOrEqual(320);
  });
});

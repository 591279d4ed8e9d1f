import type { Node } from '@xyflow/react';
import { describe, expect, it } from 'vitest';
import type { FlowNode } from '../../shared/schema.ts';
import { NEW_NODE_SIZE } from '../designer/placement.ts';
import { withEstimatedHandles } from './estimatedHandles.ts';

const node = (flowNode: FlowNode, measured?: { width: number; height: number }): Node => ({
  id: flowNode.id,
  type: flowNode.kind,
  position: { x: 0, y: 0 },
  data: { node: flowNode, problems: [] },
  ...(measured ? { measured } : {}),
});

describe('a large flow’s nodes not drawn yet come with a guess at their handles', () => {
  it('a node never measured gets a size and a target and source handle, so React Flow need not draw it to measure it', () => {
    const guessed = withEstimatedHandles(node({ id: 'w', kind: 'work' } as FlowNode));

    expect(guessed.initialWidth).toBe(NEW_NODE_SIZE.width);
    expect(guessed.initialHeight).toBe(NEW_NODE_SIZE.height);
    expect(guessed.handles?.map((h) => [h.type, h.id])).toEqual([
      ['target', null],
      ['source', null],
    ]);
  });

  it('a wait gets a source handle per trigger, with the id its edges name', () => {
    const wait = {
      id: 'approve',
      kind: 'continue-after',
      on: [
        { id: 'yes', event: 'approved' },
        { id: 'late', timer: 'PT1H' },
      ],
    } as unknown as FlowNode;

    const ids = withEstimatedHandles(node(wait)).handles?.map((h) => h.id);

    expect(ids).toEqual([null, null, 'trigger:yes', 'trigger:late']);
  });

  it('the same node object gives the same guessed object: React Flow sees no change', () => {
    const n = node({ id: 'w', kind: 'work' } as FlowNode);

    expect(withEstimatedHandles(n)).toBe(withEstimatedHandles(n));
  });

  it('a measured node is left as it is, so its measured handles are kept', () => {
    const n = node({ id: 'w', kind: 'work' } as FlowNode, { width: 180, height: 70 });

    expect(withEstimatedHandles(n)).toBe(n);
  });
});

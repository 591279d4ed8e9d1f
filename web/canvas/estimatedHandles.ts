import { Position, type Node, type NodeHandle } from '@xyflow/react';
import type { FlowNode } from '../../shared/schema.ts';
import { triggerHandleId } from '../designer/canvasTypes.ts';
import { NEW_NODE_SIZE } from '../designer/placement.ts';

/** Where a continue-after node's trigger handles are guessed to sit: below the header, a row each. */
const TRIGGER_TOP = 52;
const TRIGGER_ROW = 24;

const guessed = new WeakMap<Node, Node>();

/**
 * A node never drawn, with a guess at its size and handles. React Flow draws every node it has
 * no handles for, in view or not, to measure it: for a large flow, which draws only what is in
 * view, that was every node on opening (5,000 nodes built and torn down before the first frame).
 * With a guess it draws only those in view; once drawn, a node is measured (`measured`), and its
 * measured handles are kept, so the guess is dropped. One object per node object, so that React
 * Flow sees the same node as long as the designer's is the same.
 */
export function withEstimatedHandles<T extends Node>(node: T): T {
  if (node.measured?.width !== undefined) return node;
  let out = guessed.get(node) as T | undefined;
  if (!out) {
    out = {
      ...node,
      initialWidth: NEW_NODE_SIZE.width,
      initialHeight: NEW_NODE_SIZE.height,
      handles: handlesOf(node),
    };
    guessed.set(node, out);
  }
  return out;
}

function handlesOf(node: Node): NodeHandle[] {
  const { width, height } = NEW_NODE_SIZE;
  const middle = height / 2;
  const handles: NodeHandle[] = [
    { id: null, type: 'target', position: Position.Left, x: 0, y: middle },
    { id: null, type: 'source', position: Position.Right, x: width, y: middle },
  ];
  const flowNode = (node.data as { node?: FlowNode }).node;
  if (flowNode?.kind === 'continue-after')
    flowNode.on.forEach((t, i) =>
      handles.push({
        id: triggerHandleId(t.id),
        type: 'source',
        position: Position.Right,
        x: width,
        y: TRIGGER_TOP + i * TRIGGER_ROW,
      }),
    );
  return handles;
}

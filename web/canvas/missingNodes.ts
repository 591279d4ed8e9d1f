import { Position } from '@xyflow/react';
import type { CanvasEdge, CanvasNode } from '../designer/canvasTypes.ts';
import type { Rect } from '../designer/edgeGeometry.ts';
import { rectOf } from '../designer/designerStore.ts';
import { freeSpot } from '../designer/placement.ts';
import type { MissingCanvasNode } from './nodes/MissingNode.tsx';

const NONE: readonly MissingCanvasNode[] = [];

/** A placeholder's size, as MissingNode draws it (nodes.css). */
export const MISSING_SIZE = { width: 170, height: 84 };
const HANDLE = 8;

/**
 * Placeholders for the nodes that edges name and the flow lacks, each in free space beside the
 * end that is there (a missing target right of its source, a missing source left of its target), so that a dangling edge is drawn to something
 * visible and covers no node.
 */
export function missingNodes(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
  ids: ReadonlySet<string> = new Set(nodes.map((n) => n.id)),
): readonly MissingCanvasNode[] {
  // Most flows name no missing node: say so from the ids alone, without the nodes' boxes.
  if (edges.every((e) => ids.has(e.source) && ids.has(e.target))) return NONE;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const taken = nodes.map(rectOf);
  const out = new Map<string, MissingCanvasNode>();
  for (const e of edges) {
    for (const [end, other, side] of [
      [e.target, e.source, 'right'],
      [e.source, e.target, 'left'],
    ] as const) {
      if (byId.has(end) || out.has(end)) continue;
      const beside = byId.get(other);
      const near = beside && rectOf(beside);
      // A missing source goes left of its target, so that its edge runs forwards.
      const position =
        (side === 'left' && near && freeLeftOf(taken, near)) || freeSpot(taken, near, MISSING_SIZE);
      taken.push({ ...position, ...MISSING_SIZE });
      out.set(end, placeholder(end, position));
    }
  }
  return [...out.values()];
}

const GAP = 60;
const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width + 8 &&
  b.x < a.x + a.width + 8 &&
  a.y < b.y + b.height + 8 &&
  b.y < a.y + a.height + 8;

/** A free spot for a placeholder left of `near` (level, then below, then above); or none. */
function freeLeftOf(taken: readonly Rect[], near: Rect): { x: number; y: number } | undefined {
  const { width, height } = MISSING_SIZE;
  for (let step = 1; step <= 4; step++) {
    const x = near.x - step * (width + GAP);
    for (const y of [near.y, near.y + height + GAP / 2, near.y - height - GAP / 2]) {
      const spot = { x, y, width, height };
      if (!taken.some((r) => overlaps(spot, r))) return { x, y };
    }
  }
  return undefined;
}

function placeholder(id: string, position: { x: number; y: number }): MissingCanvasNode {
  const { width, height } = MISSING_SIZE;
  const y = height / 2 - HANDLE / 2;
  return {
    id,
    type: 'missing',
    position,
    data: { id },
    // Not part of the flow, so React Flow's measurements of it never come back through the
    // store: without a size and handles of its own it would count as unmeasured, and no edge
    // would be drawn to it.
    width,
    height,
    measured: { width, height },
    handles: [
      { type: 'target', position: Position.Left, x: -HANDLE / 2, y, width: HANDLE, height: HANDLE },
      {
        type: 'source',
        position: Position.Right,
        x: width - HANDLE / 2,
        y,
        width: HANDLE,
        height: HANDLE,
      },
    ],
    selectable: false,
    draggable: false,
    connectable: false,
  };
}

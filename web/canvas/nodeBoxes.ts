import { overlaps, type Rect } from '../designer/edgeGeometry.ts';
import { rectGrid, type RectGrid } from './rectGrid.ts';

/** A node's box, with its id so that an edge can leave out the boxes of its own two nodes. */
export type NodeRect = Rect & { id: string };

/**
 * How many generations back a set of boxes remembers what changed: an edge routed longer ago
 * than that is routed again.
 */
const REMEMBERED = 16;
/**
 * Past this many boxes changed at once (a new layout, a flow switched), a generation says
 * "everything": checking each route against each box would cost more than routing again.
 */
const MAX_CHANGED = 256;

/**
 * The nodes' boxes as the canvas drew them at one moment (one nodes array of React Flow's store),
 * in a grid for asking what is near, with what changed since the boxes before it: a box moved,
 * resized, added or removed, as its box before and its box now. A box unchanged is the same
 * object in both, so "this box is still there as it was" is an identity test.
 */
export interface NodeBoxes {
  grid: RectGrid<NodeRect>;
  byId: ReadonlyMap<string, NodeRect>;
  /** The boxes before these, while remembered. */
  prev: NodeBoxes | undefined;
  /** The boxes (before and now) that differ from `prev`'s; undefined: too many, or no `prev`. */
  changed: readonly NodeRect[] | undefined;
}

/**
 * The boxes of `rects` (in the order given), with what changed since `prev`: each box equal to
 * the one `prev` had for its id is `prev`'s object.
 */
export function nodeBoxes(rects: Iterable<NodeRect>, prev?: NodeBoxes): NodeBoxes {
  const byId = new Map<string, NodeRect>();
  let changed: NodeRect[] | undefined = prev ? [] : undefined;
  const note = (r: NodeRect) => {
    if (changed && changed.push(r) > MAX_CHANGED) changed = undefined;
  };
  // How many of `prev`'s ids are still here: fewer than it had means some were removed.
  let stayed = 0;
  for (const r of rects) {
    const was = prev?.byId.get(r.id);
    if (was) stayed++;
    if (was && sameBox(was, r)) {
      byId.set(r.id, was);
      continue;
    }
    byId.set(r.id, r);
    if (was) note(was);
    note(r);
  }
  if (prev && changed && stayed < prev.byId.size)
    for (const [id, was] of prev.byId) if (!byId.has(id)) note(was);
  const boxes: NodeBoxes = {
    grid: rectGrid(byId.values()),
    byId,
    prev: prev && changed ? prev : undefined,
    changed,
  };
  forgetBeyond(boxes, REMEMBERED);
  return boxes;
}

const sameBox = (a: Rect, b: Rect) =>
  a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

/** Cuts the chain of generations `limit` back, so that old boxes can be collected. */
function forgetBeyond(boxes: NodeBoxes, limit: number): void {
  let at: NodeBoxes | undefined = boxes;
  for (let i = 0; i < limit && at; i++) at = at.prev;
  if (at) {
    at.prev = undefined;
    at.changed = undefined;
  }
}

/**
 * What was looked at to route an edge: each box asked about (a rectangle of the plane), and for
 * a question that stopped at its bound, the boxes it had found (whose being there decided it).
 */
export interface Asked {
  box: Rect;
  /** Set when the answer was "more than the bound": the boxes found, any more of which did. */
  crowd?: readonly NodeRect[];
  /**
   * Set when the answer was "more than the bound" by count alone (RectGrid.surelyOverlapping):
   * it holds while more than this many boxes surely overlap `box`.
   */
  surely?: number;
}

/**
 * Whether what was asked (`asked`, against the boxes `then`) has the same answers against
 * `now`: no box changed since then overlaps a rectangle asked about, unless the question was
 * answered "too many" and the box was not among those it found (those still overlap it, so it
 * still finds too many); a question answered "too many" by count holds while the count does. Boxes `ignored` (the edge's own ends, which its questions leave out)
 * do not count. False when `then` is not among the generations `now` remembers.
 */
export function sameAnswers(
  asked: readonly Asked[],
  then: NodeBoxes,
  now: NodeBoxes,
  ignored: (r: NodeRect) => boolean = () => false,
): boolean {
  if (then === now) return true;
  for (const q of asked)
    if (q.surely !== undefined && now.grid.surelyOverlapping(q.box) <= q.surely) return false;
  for (let at: NodeBoxes | undefined = now; at !== then; at = at.prev) {
    if (!at?.changed) return false;
    for (const c of at.changed) {
      if (ignored(c)) continue;
      // A box found by a crowded question overlaps it, so a changed one among them does too.
      for (const q of asked)
        if (q.surely === undefined && overlaps(q.box, c) && (!q.crowd || q.crowd.includes(c)))
          return false;
    }
  }
  return true;
}

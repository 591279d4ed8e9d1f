import type { Rect } from '../designer/edgeGeometry.ts';
import type { EdgeEnds, RoutedPath } from '../designer/edgeRouting.ts';
import { routeEdge } from '../designer/edgeRouting.ts';
import { sameAnswers, type Asked, type NodeBoxes } from './nodeBoxes.ts';

/** An edge's route as last found: what it was found from, what it asked, and the route. */
interface KeptRoute {
  source: string;
  target: string;
  ends: EdgeEnds;
  boxes: NodeBoxes;
  asked: Asked[];
  route: RoutedPath;
}

/**
 * Edges' routes kept by edge id for one canvas, across mounts (an edge leaves the view and comes
 * back) and across new boxes that change nothing the route looked at. A route is a function of
 * its ends and of the boxes each of its questions found, so one kept while those are the same is
 * the route that routing again would find.
 */
export type KeptRoutes = Map<string, KeptRoute>;

const sameEnds = (a: EdgeEnds, b: EdgeEnds) =>
  a.source.x === b.source.x &&
  a.source.y === b.source.y &&
  a.target.x === b.target.x &&
  a.target.y === b.target.y &&
  (a.fan ?? 0) === (b.fan ?? 0) &&
  a.loop?.bottom === b.loop?.bottom &&
  a.loop?.depth === b.loop?.depth;

/** A rectangle over the whole plane: what overlaps anything routeEdge asks about. */
const EVERYWHERE: Rect = { x: -1e15, y: -1e15, width: 2e15, height: 2e15 };
const many = new Map<number, readonly Rect[]>();
/** An answer of more than `limit` boxes, as routeEdge reads one: their number alone. */
function tooMany(limit: number): readonly Rect[] {
  let answer = many.get(limit);
  if (!answer) many.set(limit, (answer = Array<Rect>(limit + 1).fill(EVERYWHERE)));
  return answer;
}

/**
 * The route of edge `id` from `source` to `target` (node ids, whose boxes it does not go round)
 * among `boxes`: the kept one when its ends are the same and the boxes it looked at are as they
 * were, else found afresh (routeEdge) and kept. The same object while it is kept, so that a
 * component holding it does not render.
 */
export function keptRoute(
  kept: KeptRoutes,
  id: string,
  source: string,
  target: string,
  ends: EdgeEnds,
  boxes: NodeBoxes,
): RoutedPath;
/** As above, or undefined, routing nothing, when the route kept will not do and `route` is false. */
export function keptRoute(
  kept: KeptRoutes,
  id: string,
  source: string,
  target: string,
  ends: EdgeEnds,
  boxes: NodeBoxes,
  route: boolean,
): RoutedPath | undefined;
export function keptRoute(
  kept: KeptRoutes,
  id: string,
  source: string,
  target: string,
  ends: EdgeEnds,
  boxes: NodeBoxes,
  route = true,
): RoutedPath | undefined {
  const was = kept.get(id);
  if (
    was &&
    was.source === source &&
    was.target === target &&
    (was.ends === ends || sameEnds(was.ends, ends))
  ) {
    was.ends = ends;
    if (was.boxes === boxes) return was.route;
    if (sameAnswers(was.asked, was.boxes, boxes, (r) => r.id === source || r.id === target)) {
      was.boxes = boxes;
      return was.route;
    }
  }
  if (!route) return undefined;
  const asked: Asked[] = [];
  const found = routeEdge(ends, (box, limit) => {
    // More than the bound surely in the way, less the edge's own two: the answer is "too many"
    // without a look at any (an edge over most of a large flow), given as routeEdge reads it.
    if (boxes.grid.surelyOverlapping(box) > limit + 2) {
      asked.push({ box, surely: limit + 2 });
      return tooMany(limit);
    }
    const inWay = boxes.grid.overlapping(box, limit, (r) => r.id !== source && r.id !== target);
    asked.push(inWay.length > limit ? { box, crowd: inWay } : { box });
    return inWay;
  });
  kept.set(id, { source, target, ends, boxes, asked, route: found });
  return found;
}

/**
 * Whether the route kept for edge `id` is still its route among `boxes`, its ends being where
 * they were (the caller knows: the same nodes): no box it looked at changed since. Notes the
 * new boxes when it is, so that the next look is one comparison.
 */
export function routeHolds(kept: KeptRoutes, id: string, boxes: NodeBoxes): boolean {
  const was = kept.get(id);
  if (!was) return false;
  if (was.boxes === boxes) return true;
  if (!sameAnswers(was.asked, was.boxes, boxes, (r) => r.id === was.source || r.id === was.target))
    return false;
  was.boxes = boxes;
  return true;
}

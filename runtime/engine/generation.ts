import type { EdgeInfo, FlowModel } from './flowModel.ts';
import type { Generation } from './snapshot.ts';

/**
 * The generation a token has after taking `edge` from a node whose heads are `fromHeads`
 * (docs/format.md#loops-and-generations). A head that dominates the target also dominates the
 * source, unless it is the target itself; so the target keeps the source's pass numbers and, if
 * it is a head, starts at 0 on entering or goes one on when the edge closes its loop.
 */
export function generationAlong(
  fromHeads: readonly string[],
  edge: EdgeInfo,
  from: Generation,
): Generation {
  const toHeads = edge.to.heads;
  // Most edges change no pass number: the token keeps the source's generation, which no step
  // changes in place (snapshot.ts), rather than a copy of it per step.
  if (toHeads.length === 0) return NO_LOOP;
  const to = edge.edge.to;
  if (sameHeads(toHeads, fromHeads, to) && from.length === toHeads.length) return from;
  return toHeads.map((head) => {
    const i = fromHeads.indexOf(head);
    if (head !== to) return i < 0 ? 0 : from[i]!;
    return edge.closing && i >= 0 ? from[i]! + 1 : 0;
  });
}

/**
 * How many loop heads two nodes share. Heads are listed along the dominator tree, outermost
 * first, so the shared ones are a common prefix of both lists.
 */
export function sharedHeads(model: FlowModel, a: string, b: string): number {
  // A flow without loops has no heads: nothing to look up.
  if (!model.loops) return 0;
  const ha = model.heads(a);
  const hb = model.heads(b);
  let n = 0;
  while (n < ha.length && n < hb.length && ha[n] === hb[n]) n++;
  return n;
}

/** Whether two generations agree on their first `length` pass numbers. */
export function samePasses(a: Generation, b: Generation, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The generation of a node in no loop; shared, so frozen. */
const NO_LOOP: Generation = Object.freeze([]) as unknown as Generation;

/** The same heads, none of them `to` itself (whose pass number an edge into it sets). */
function sameHeads(a: readonly string[], b: readonly string[], to: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] || a[i] === to) return false;
  return true;
}

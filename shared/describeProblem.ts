import type { Problem } from './validateFlow.ts';

/** A problem as one line, led by what it is on: `node "both": depends on "x", which …`. */
export function describeProblem(problem: Problem): string {
  return describeProblemIn(problem, () => undefined);
}

/**
 * describeProblem with an edge named by its ends, as a designer sees it on the canvas
 * (`edge wait1 → work1: …`), when `edgeEnds` knows the edge.
 */
export function describeProblemIn(
  problem: Problem,
  edgeEnds: (edgeId: string) => { from: string; to: string } | undefined,
): string {
  const ends = problem.edgeId === undefined ? undefined : edgeEnds(problem.edgeId);
  const edge = ends ? `edge ${ends.from} → ${ends.to}` : `edge "${problem.edgeId}"`;
  const where = [
    problem.nodeId === undefined ? undefined : `node "${problem.nodeId}"`,
    problem.edgeId === undefined ? undefined : edge,
  ].filter((part) => part !== undefined);
  return where.length > 0 ? `${where.join(', ')}: ${problem.message}` : problem.message;
}

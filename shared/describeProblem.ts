import type { Problem } from './validateFlow.ts';

/** A problem as one line, led by what it is on: `node "both": depends on "x", which …`. */
export function describeProblem(problem: Problem): string {
  const where = [
    problem.nodeId === undefined ? undefined : `node "${problem.nodeId}"`,
    problem.edgeId === undefined ? undefined : `edge "${problem.edgeId}"`,
  ].filter((part) => part !== undefined);
  return where.length > 0 ? `${where.join(', ')}: ${problem.message}` : problem.message;
}

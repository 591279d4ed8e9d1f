import type { Flow, FlowEdge, FlowNode } from '../shared/schema.ts';
import { MAX_LIVE_BRANCHES } from '../runtime/engine/run.ts';

/**
 * The scenarios of `npm run bench -- simulate` (issue 17): what users run `flow simulate` on
 * in their CI, at the sizes where a per-step cost that grows with the flow or the live branches
 * shows. Each is a `scenario/1` document (docs/format.md#scenarios) with the report's figure it must reach.
 */
export interface SimulateCase {
  name: string;
  description: string;
  scenario: unknown;
  /** What the report must say, so that a fast run that does not do the work cannot pass. */
  check: (report: SimulateReportLike) => string | null;
  /** The goal for the whole command, start-up included, ms. */
  goalMs: number;
}

export interface SimulateReportLike {
  processes: Record<
    string,
    { status: string; visits: Record<string, number>; error?: string | null }
  >;
  errors: unknown[];
}

const CLOCK = '2026-01-01T00:00:00Z';
const start = (): FlowNode => ({ id: 'start', kind: 'start' });
const end = (): FlowNode => ({ id: 'end', kind: 'end' });
const edge = (from: string, to: string, when?: string): FlowEdge => ({
  id: `${from}>${to}`,
  from,
  to,
  ...(when === undefined ? {} : { when }),
});
const flow = (nodes: FlowNode[], edges: FlowEdge[]): Flow => ({
  format: 'flow/1',
  id: 'main',
  nodes,
  edges,
});
const scenario = (f: Flow, steps: unknown[]) => ({
  format: 'scenario/1',
  flows: [f],
  clock: CLOCK,
  steps: [{ start: 'main', as: 'p', context: { count: 0 } }, ...steps],
});

function expectVisits(node: string, count: number, status: string) {
  return (r: SimulateReportLike) => {
    const p = r.processes.p;
    if (!p) return 'no process "p" in the report';
    if (r.errors.length > 0) return `errors: ${JSON.stringify(r.errors).slice(0, 200)}`;
    if (p.status !== status) return `status ${p.status}, expected ${status}`;
    const seen = p.visits[node] ?? 0;
    return seen === count ? null : `${node} visited ${seen} times, expected ${count}`;
  };
}

/** start → tick (count + 1) → sleep (PT1M) → tick while count < passes, else end; P7D. */
export function minuteLoop(passes = 10_000): SimulateCase {
  const f = flow(
    [
      start(),
      { id: 'tick', kind: 'work', set: { count: 'count + 1' } },
      { id: 'sleep', kind: 'continue-after', on: [{ id: 'minute', timer: 'PT1M' }] },
      end(),
    ],
    [
      edge('start', 'tick'),
      edge('tick', 'sleep'),
      edge('sleep', 'tick', `count < ${passes}`),
      edge('sleep', 'end', `count >= ${passes}`),
    ],
  );
  return {
    name: `${passes.toLocaleString('en')} passes of a PT1M loop`,
    description: 'one process, a work node and a one-minute timer per pass, an advance of P7D',
    scenario: scenario(f, [{ advance: 'P7D' }]),
    check: expectVisits('tick', passes, 'done'),
    goalMs: 500,
  };
}

/** start → n work nodes in a row (count + 1) → end. */
export function chainOf(n: number): SimulateCase {
  const ids = Array.from({ length: n }, (_, i) => `w${i}`);
  const path = ['start', ...ids, 'end'];
  const f = flow(
    [
      start(),
      ...ids.map((id): FlowNode => ({ id, kind: 'work', set: { count: 'count + 1' } })),
      end(),
    ],
    path.slice(1).map((to, i) => edge(path[i]!, to)),
  );
  return {
    name: `chain of ${n.toLocaleString('en')} work nodes`,
    description: 'start, n work nodes in a row, each count ← count + 1, end',
    scenario: scenario(f, []),
    check: expectVisits('end', 1, 'done'),
    goalMs: n <= 1000 ? 500 : 2000,
  };
}

/**
 * start → split → n branches (each sets a flag) → one join on all of them → end. Up to the
 * default bound on live branches (`MAX_LIVE_BRANCHES`, 10,000) it runs as a user's file has it,
 * with no bound of its own (issue 29: a fan-out of 10,000 runs by default).
 */
export function fanOut(n = 1000): SimulateCase {
  const ids = Array.from({ length: n }, (_, i) => `b${i}`);
  const f = flow(
    [
      start(),
      { id: 'split', kind: 'fanout' },
      ...ids.map((id): FlowNode => ({ id, kind: 'work', set: { [id]: 'true' } })),
      { id: 'all', kind: 'join', depends: ids },
      end(),
    ],
    [
      edge('start', 'split'),
      ...ids.map((id) => edge('split', id)),
      ...ids.map((id) => edge(id, 'all')),
      edge('all', 'end'),
    ],
  );
  return {
    name: `fan-out of ${n.toLocaleString('en')} into one join`,
    description: 'a split into n branches that each set a flag, a join naming all of them',
    scenario: {
      ...scenario(f, []),
      ...(n > MAX_LIVE_BRANCHES ? { maxLiveBranches: n } : {}),
    },
    check: expectVisits('all', 1, 'done'),
    // Issue 17's goal for 1,000; issue 29's for 10,000.
    goalMs: n <= 1000 ? 500 : 2000,
  };
}

/**
 * A sub-flow that calls its own flow twice: what is running doubles at every level. At the
 * default bound it must fail, naming the bound, "within seconds" (issue 29).
 */
export function forkBomb(): SimulateCase {
  const f: Flow = {
    format: 'flow/1',
    id: 'main',
    nodes: [
      start(),
      { id: 'split', kind: 'fanout' },
      { id: 'a', kind: 'subflow', flow: 'main' },
      { id: 'b', kind: 'subflow', flow: 'main' },
    ],
    edges: [edge('start', 'split'), edge('split', 'a'), edge('split', 'b')],
  };
  const bound = `more than ${MAX_LIVE_BRANCHES.toLocaleString('en')} live branches`;
  return {
    name: 'a sub-flow calling its own flow twice',
    description: 'a fork bomb, failed at the default bound on live branches',
    scenario: scenario(f, []),
    check: (r) => {
      const p = r.processes.p;
      if (!p) return 'no process "p" in the report';
      if (p.status !== 'failed') return `status ${p.status}, expected failed`;
      return p.error?.includes(bound) ? null : `error ${p.error}, expected "${bound}"`;
    },
    goalMs: 3000,
  };
}

/** start → split → n branches, each its own loop: tick_i → wait_i (PT1H) → tick_i; P3D. */
export function parallelWaits(n = 100): SimulateCase {
  const ids = Array.from({ length: n }, (_, i) => i);
  const f = flow(
    [
      start(),
      { id: 'split', kind: 'fanout' },
      ...ids.flatMap((i): FlowNode[] => [
        { id: `tick${i}`, kind: 'work', set: { [`n${i}`]: `$exists(n${i}) ? n${i} + 1 : 1` } },
        { id: `wait${i}`, kind: 'continue-after', on: [{ id: 'hourly', timer: 'PT1H' }] },
      ]),
    ],
    [
      edge('start', 'split'),
      ...ids.flatMap((i) => [
        edge('split', `tick${i}`),
        edge(`tick${i}`, `wait${i}`),
        edge(`wait${i}`, `tick${i}`),
      ]),
    ],
  );
  // 72 hourly passes in three days, and the first visit before any timer.
  return {
    name: `${n} parallel waits looping over P3D`,
    description: 'n branches, each a loop of a work node and a PT1H wait, advanced three days',
    scenario: scenario(f, [{ advance: 'P3D' }]),
    check: expectVisits('tick0', 73, 'waiting'),
    goalMs: 500,
  };
}

export function simulateCases(): SimulateCase[] {
  return [
    minuteLoop(),
    chainOf(1000),
    chainOf(4000),
    chainOf(20_000),
    fanOut(),
    fanOut(10_000),
    forkBomb(),
    parallelWaits(),
  ];
}

import type { Flow, FlowEdge, FlowNode } from '../shared/schema.ts';
import { validateFlow } from '../shared/validateFlow.ts';
import { describeProblem } from '../shared/describeProblem.ts';

/**
 * The benchmark flows in wakeflow's own format (docs/format.md#flows). The peers express the same
 * flows in theirs (bench/peers/).
 */

export const FANOUT_BRANCHES = 10;
export const CHAIN_LENGTH = 100;
export const LOOP_PASSES = 1000;

const start = (): FlowNode => ({ id: 'start', kind: 'start' });
const end = (): FlowNode => ({ id: 'end', kind: 'end' });
const work = (id: string, set: Record<string, string>): FlowNode => ({ id, kind: 'work', set });

function edges(pairs: [string, string, string?][]): FlowEdge[] {
  return pairs.map(([from, to, when], i) => ({
    id: `e${i}`,
    from,
    to,
    ...(when === undefined ? {} : { when }),
  }));
}

/** start → split → 10 branches (each sets its flag) → a join on all ten → end. */
export function fanoutFlow(branches = FANOUT_BRANCHES): Flow {
  const ids = Array.from({ length: branches }, (_, i) => `b${i}`);
  return {
    format: 'flow/1',
    id: 'fanout',
    nodes: [
      start(),
      { id: 'split', kind: 'fanout' },
      ...ids.map((b) => work(b, { [b]: 'true' })),
      { id: 'both', kind: 'join', depends: ids },
      end(),
    ],
    edges: edges([
      ['start', 'split'],
      ...ids.map((b): [string, string] => ['split', b]),
      ...ids.map((b): [string, string] => [b, 'both']),
      ['both', 'end'],
    ]),
  };
}

/** start → 100 work nodes in a row, each `count ← count + 1` → end. */
export function chainFlow(length = CHAIN_LENGTH): Flow {
  const ids = Array.from({ length }, (_, i) => `w${i}`);
  const path = ['start', ...ids, 'end'];
  return {
    format: 'flow/1',
    id: 'chain',
    nodes: [start(), ...ids.map((w) => work(w, { count: 'count + 1' })), end()],
    edges: edges(path.slice(1).map((to, i): [string, string] => [path[i]!, to])),
  };
}

/**
 * start → tick (`count ← count + 1`) → sleep (a PT1H timer) → back to tick while
 * `count < passes`, else end. Each pass is a durable stop that the driver wakes by firing the
 * timer.
 */
export function loopFlow(passes = LOOP_PASSES): Flow {
  return {
    format: 'flow/1',
    id: 'loop',
    nodes: [
      start(),
      work('tick', { count: 'count + 1' }),
      { id: 'sleep', kind: 'continue-after', on: [{ id: 'hourly', timer: 'PT1H' }] },
      end(),
    ],
    edges: edges([
      ['start', 'tick'],
      ['tick', 'sleep'],
      ['sleep', 'tick', `count < ${passes}`],
      ['sleep', 'end', `count >= ${passes}`],
    ]),
  };
}

/**
 * A process that keeps asking a person: review (a human trigger, input into `decision`) →
 * apply (`count ← count + 1`) → review again. Each cycle wakes at review and sleeps there again.
 */
export function reviewFlow(): Flow {
  return {
    format: 'flow/1',
    id: 'review',
    nodes: [
      start(),
      {
        id: 'review',
        kind: 'continue-after',
        on: [
          {
            id: 'decide',
            human: { prompt: 'Approve?', fields: [{ name: 'approved', type: 'boolean' }] },
            into: 'decision',
          },
        ],
      },
      work('apply', { count: 'count + 1' }),
    ],
    edges: edges([
      ['start', 'review'],
      ['review', 'apply'],
      ['apply', 'review'],
    ]),
  };
}

/** Throws unless the flow can run: a benchmark of a flow that the runtime refuses means nothing. */
export function assertRunnable(flow: Flow): Flow {
  const problems = validateFlow(flow);
  if (problems.length > 0)
    throw new Error(`bench flow "${flow.id}": ${problems.map(describeProblem).join('; ')}`);
  return flow;
}

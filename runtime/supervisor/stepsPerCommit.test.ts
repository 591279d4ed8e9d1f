import { describe, expect, it } from 'vitest';
import { end, flow, start, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { VirtualClock } from './clock.ts';
import { MAX_STEPS_PER_COMMIT } from './limits.ts';
import { Supervisor } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);

/** start → n work nodes in a row, each count + 1 → end. */
function chainOf(n: number): Flow {
  const ids = Array.from({ length: n }, (_, i) => `w${i}`);
  const path = ['start', ...ids, 'end'];
  return flow({
    id: 'chain',
    nodes: [start(), ...ids.map((id) => work(id, { count: 'count + 1' })), end()],
    edges: path.slice(1).map((to, i) => ({ id: `e${i}`, from: path[i]!, to })),
  });
}

/** A chain run to its end, with the commits its drive made. */
async function runChain(n: number, maxStepsPerCommit?: number) {
  const store = new MemoryStore({ journal: false });
  let commits = 0;
  const commitStep = store.commitStep.bind(store);
  store.commitStep = (commit) => (commits++, commitStep(commit));
  const options = maxStepsPerCommit === undefined ? {} : { maxStepsPerCommit };
  const supervisor = new Supervisor(store, new VirtualClock(T0), options);
  await store.putFlow(chainOf(n));
  const record = await supervisor.start('chain', { id: 'p', context: { count: 0 } });
  const context = await store.getContext(record.contextId);
  return { commits, record, context };
}

describe('steps per commit (SupervisorOptions.maxStepsPerCommit)', () => {
  it('rule: a drive commits every MAX_STEPS_PER_COMMIT steps unless told otherwise, and once with Infinity, to the same record and context', async () => {
    const n = 2 * MAX_STEPS_PER_COMMIT + 500;
    const steps = n + 2;
    const bounded = await runChain(n);
    expect(bounded.commits).toBe(Math.ceil(steps / MAX_STEPS_PER_COMMIT));
    const whole = await runChain(n, Infinity);
    expect(whole.commits).toBe(1);
    expect(whole.record.status).toBe('done');
    expect(whole.record).toStrictEqual(bounded.record);
    expect(whole.context).toStrictEqual(bounded.context);
    expect((whole.context!.value as { count: number }).count).toBe(n);
  });

  it('rule: the drive budget (maxStepsPerRun) still stops a run that commits once', async () => {
    const store = new MemoryStore({ journal: false });
    const supervisor = new Supervisor(store, new VirtualClock(T0), {
      maxStepsPerCommit: Infinity,
      maxStepsPerRun: 100,
    });
    await store.putFlow(chainOf(500));
    const record = await supervisor.start('chain', { id: 'p', context: { count: 0 } });
    expect(record.status).toBe('stopped');
    expect(record.error).toContain('ran 100 steps');
  });
});

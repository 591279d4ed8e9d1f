import { describe, expect, it } from 'vitest';
import { chain, edge, fanout, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { VirtualClock } from './clock.ts';
import type { StepCommit } from './store.ts';
import { Supervisor } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

async function setup(f: Flow) {
  const store = new MemoryStore();
  const commits: StepCommit[] = [];
  const commitStep = store.commitStep.bind(store);
  store.commitStep = (c: StepCommit) => {
    commits.push(c);
    return commitStep(c);
  };
  await store.putFlow(f);
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock);
  return { store, commits, clock, supervisor };
}

/** A split into `n` branches, each a loop: tick_i (n_i + 1), then wait_i an hour. */
function parallelLoops(n: number): Flow {
  const ids = Array.from({ length: n }, (_, i) => i);
  return flow({
    id: 'loops',
    nodes: [
      start(),
      fanout('split'),
      ...ids.flatMap((i) => [
        work(`tick${i}`, { [`n${i}`]: `$exists(n${i}) ? n${i} + 1 : 1` }),
        wait(`wait${i}`, [{ id: 'hourly', timer: 'PT1H' }]),
      ]),
    ],
    edges: [
      ...chain('start', 'split'),
      ...ids.flatMap((i) => [
        edge('split', `tick${i}`),
        edge(`tick${i}`, `wait${i}`),
        edge(`wait${i}`, `tick${i}`),
      ]),
    ],
  });
}

describe('rule: timers of one process due at the same time fire in one run and one commit', () => {
  it('five waits due together: one commit per hour, each fired once, in order of their waits', async () => {
    const { store, commits, supervisor } = await setup(parallelLoops(5));
    const p = await supervisor.start('loops', { id: 'p', context: {} });
    commits.length = 0;
    for (let h = 1; h <= 3; h++) await supervisor.advanceTo(T0 + h * HOUR);
    // One commit per hour, not one per wait.
    expect(commits).toHaveLength(3);
    const after = (await supervisor.mustGet('p'))!;
    expect(after.status).toBe('waiting');
    expect(after.wakes).toBe(15);
    expect((await store.getContext(p.contextId))!.value).toEqual({
      n0: 4,
      n1: 4,
      n2: 4,
      n3: 4,
      n4: 4,
    });
    // Fired oldest wait first, every hour: wait0, wait1, … wait4.
    const woke = (await store.journal('p')).filter((e) => e.type === 'woke');
    expect(woke.map((e) => (e as { node: string }).node)).toEqual(
      Array.from({ length: 3 }, () => [0, 1, 2, 3, 4].map((i) => `wait${i}`)).flat(),
    );
    expect(woke.map((e) => e.at)).toEqual(
      [1, 2, 3].flatMap((h) => Array.from({ length: 5 }, () => T0 + h * HOUR)),
    );
    // Each stop inside a commit keeps the position it left (small here), as a commit's last does.
    // (The start's own waits are inside its run: only its last keeps one.)
    const waited = (await store.journal('p')).filter((e) => e.type === 'waited');
    expect(waited.slice(5).every((e) => e.snapshot !== undefined)).toBe(true);
    // The stops' positions are copies: the first stop of hour 1 had wait0 asleep again, and
    // wait1 … wait4 not yet woken, whatever the run did after it.
    const firstStop = waited[5]!.snapshot!;
    expect(firstStop.visits.tick0).toBe(2);
    expect(firstStop.visits.tick1).toBe(1);
  });

  it('a timer fired inside the run whose node fails is kept for retry, and retry carries it out', async () => {
    const f = flow({
      id: 'two',
      nodes: [
        start(),
        fanout('split'),
        wait('a', [{ id: 'ta', timer: 'PT1H' }]),
        wait('b', [{ id: 'tb', timer: 'PT1H' }]),
        work('afterA', { a: 'true' }),
        work('afterB', { b: 'true' }),
      ],
      edges: [
        ...chain('start', 'split'),
        edge('split', 'a'),
        edge('split', 'b'),
        edge('a', 'afterA'),
        // Fails while `bad` is not a number: $number("x") is an error in JSONata.
        edge('b', 'afterB', { when: '$number(bad) > 0' }),
      ],
    });
    const { store, supervisor } = await setup(f);
    const p = await supervisor.start('two', { id: 'p', context: { bad: 'x' } });
    await supervisor.advanceTo(T0 + HOUR);
    const failed = await supervisor.mustGet('p');
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^node "b": /);
    // a's fire committed; b's trigger is the one kept.
    expect((await store.getContext(p.contextId))!.value).toEqual({ bad: 'x', a: true });
    const bWait = failed.snapshot.scope.waits.find((w) => w.node === 'b')!;
    expect(failed.pendingWake).toEqual({ seq: bWait.seq, trigger: 'tb' });
    expect(failed.wakes).toBe(1);
    await supervisor.setContext('p', 'bad', '1');
    const done = await supervisor.retry('p');
    expect(done.status).toBe('done');
    expect((await store.getContext(p.contextId))!.value).toEqual({ bad: '1', a: true, b: true });
  });
});

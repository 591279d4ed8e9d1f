import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../supervisor/clock.ts';
import type { JournalEntry } from '../supervisor/records.ts';
import type { Store } from '../supervisor/store.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { HOUR, STORE_METHODS, T0, hourly, withoutSeq } from './fixtures/storeScenarios.ts';
import { IdbStore } from './idbStore.ts';

/** The tab died here: whatever the supervisor was doing is abandoned at this await point. */
class Crash extends Error {}

/**
 * A store that crashes at its `crashAt`-th await point. Each store call has two: before the call
 * reaches the database, and after the database has answered (a write has committed) but before
 * the supervisor sees the answer. After the crash every call fails: the tab is gone.
 */
function crashingStore(inner: IdbStore, crashAt: number) {
  let points = 0;
  let crashed = false;
  const point = () => {
    if (++points === crashAt) crashed = true;
    if (crashed) throw new Crash(`crashed at await point ${crashAt}`);
  };
  const methods = new Set<string>(STORE_METHODS);
  const store = new Proxy(inner, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof prop !== 'string' || !methods.has(prop) || typeof value !== 'function')
        return value;
      return async (...args: unknown[]) => {
        point();
        const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(
          target,
          args,
        );
        point();
        return result;
      };
    },
  }) as Store;
  return { store, points: () => points };
}

const END = T0 + 6 * HOUR;
let databases = 0;

/** The scenario: an hourly loop of five passes, started, then six hours go by. */
async function scenario(supervisor: Supervisor) {
  await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
  await supervisor.advanceTo(END);
}

async function outcome(store: IdbStore) {
  const p = (await store.getProcess('p'))!;
  // Which id the context got is not the point (a crash inside start leaves an unused one behind).
  const anonymous = <T>(value: T): T =>
    JSON.parse(JSON.stringify(value).replaceAll(JSON.stringify(p.contextId), '"<context>"'));
  const context = anonymous((await store.getContext(p.contextId))!);
  const journal = anonymous((await store.journal('p')).map(withoutSeq));
  return {
    status: p.status,
    visits: p.snapshot.visits,
    context,
    changes: anonymous((await store.contextChanges(p.contextId)).map(withoutSeq)),
    journal,
  };
}

const ranKeys = (journal: JournalEntry[]) =>
  journal.flatMap((e) => (e.type === 'ran' ? [`${e.node}@${JSON.stringify(e.gen)}`] : []));

/** Runs the scenario, crashing at `crashAt`, then reopens, recovers and finishes it. */
async function crashAndRecover(crashAt: number) {
  const name = `crash-${++databases}`;
  const clock = new VirtualClock(T0);
  const first = await IdbStore.open(name);
  await first.putFlow(hourly(5));
  const crashing = crashingStore(first, crashAt);
  const tab = new Supervisor(crashing.store, clock);
  const error = await scenario(tab).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof Crash)) throw error ?? new Error(`no crash at point ${crashAt}`);
  first.close();

  // Reopen: a new connection and a new supervisor on the same database, with the same clock.
  const reopened = await IdbStore.open(name);
  const supervisor = new Supervisor(reopened, clock);
  await supervisor.wakeDue();
  await supervisor.runAll();
  const restarted = !(await reopened.getProcess('p'));
  if (restarted) await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
  await supervisor.advanceTo(END);
  const result = await outcome(reopened);
  reopened.close();
  return { ...result, restarted };
}

/** A small seeded generator (mulberry32), so that a subset of crash points is the same each run. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('crash at any await point', () => {
  it('reopening and resuming never loses a committed write and never runs a committed step twice', async () => {
    const name = `crash-${++databases}`;
    const clock = new VirtualClock(T0);
    const db = await IdbStore.open(name);
    await db.putFlow(hourly(5));
    const counting = crashingStore(db, Number.POSITIVE_INFINITY);
    await scenario(new Supervisor(counting.store, clock));
    const expected = await outcome(db);
    db.close();
    const total = counting.points();

    expect(expected.status).toBe('done');
    expect(expected.context.value).toEqual({ count: 5 });
    expect(expected.visits).toEqual({ start: 1, tick: 5, sleep: 5, end: 1 });
    expect(ranKeys(expected.journal)).toEqual([
      'start@[]',
      ...[0, 1, 2, 3, 4].flatMap((pass) => [`tick@[${pass}]`, `sleep@[${pass}]`]),
      'end@[4]',
    ]);

    // Every await point near the start (where a process is created), and a seeded sample of
    // the rest, so the test stays quick.
    const random = seeded(20260101);
    const points = Array.from({ length: total }, (_, i) => i + 1).filter(
      (k) => k <= 40 || k === total || random() < 0.35,
    );
    // A wake reads once and commits once per step (persistence.md); the scenario's five wakes and
    // its start still give this many points, enough to crash inside every kind of call.
    expect(total).toBeGreaterThan(60);
    let restarts = 0;
    for (const k of points) {
      const recovered = await crashAndRecover(k);
      const ran = ranKeys(recovered.journal);
      expect(new Set(ran).size, `a step ran twice after a crash at point ${k}`).toBe(ran.length);
      expect(
        { status: recovered.status, visits: recovered.visits, context: recovered.context },
        `crash at point ${k}`,
      ).toEqual({ status: expected.status, visits: expected.visits, context: expected.context });
      expect(recovered.changes, `context changes after a crash at point ${k}`).toEqual(
        expected.changes,
      );
      expect(recovered.journal, `journal after a crash at point ${k}`).toEqual(expected.journal);
      if (recovered.restarted) restarts++;
    }
    // The first crash points fall in the start, before the process record is written.
    expect(restarts).toBeGreaterThan(0);
  }, 120_000);
});

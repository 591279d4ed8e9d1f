import { describe, expect, it } from 'vitest';
import { chain, edge, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * A run held in memory writes the context in place once it has copied it (applyWritesOwned),
 * and only then: what a commit stored, what a wake read, and the writes a journal keeps are
 * never changed by a later run. MemoryStore hands back what it stores, uncopied, so each is
 * frozen here and a change in place would throw.
 */
describe('rule: a run writes in place only the context it copied itself', () => {
  // Each pass writes three keys in two nodes, then sleeps an hour.
  const loop = flow({
    id: 'loop',
    nodes: [
      start(),
      work('a', { 'n.a': '$exists(n.a) ? n.a + 1 : 1', 'n.log': '$exists(n.log) ? n.log + 1 : 1' }),
      work('b', { [`m`]: '$exists(m) ? m + 1 : 1' }),
      wait('sleep', [{ id: 'hour', timer: 'PT1H' }]),
    ],
    edges: [...chain('start', 'a', 'b', 'sleep'), edge('sleep', 'a')],
  });

  it('every committed context and written value stays as committed while later wakes run on', async () => {
    const store = new MemoryStore();
    await store.putFlow(loop);
    const clock = new VirtualClock(T0);
    const supervisor = new Supervisor(store, clock);
    const p = await supervisor.start('loop', { id: 'p', context: { keep: { x: 1 } } });
    const kept: { value: unknown; copy: unknown }[] = [];
    const freezeStored = async () => {
      const stored = (await store.getContext(p.contextId))!.value;
      kept.push({ value: deepFreeze(stored), copy: structuredClone(stored) });
      for (const c of await store.contextChanges(p.contextId)) deepFreeze(c.writes);
      for (const e of await store.journal('p')) deepFreeze(e);
    };
    await freezeStored();
    for (let hour = 1; hour <= 5; hour++) {
      await supervisor.advanceTo(T0 + hour * 3_600_000);
      await freezeStored();
    }
    const now = (await store.getContext(p.contextId))!.value;
    expect(now).toEqual({ keep: { x: 1 }, n: { a: 6, log: 6 }, m: 6 });
    // Every earlier version is still what it was when it was committed.
    for (const { value, copy } of kept) expect(value).toEqual(copy);
    expect(kept[0]!.copy).toEqual({ keep: { x: 1 }, n: { a: 1, log: 1 }, m: 1 });
    // What no write went through is the object the process was started with, never copied.
    expect((now as { keep: unknown }).keep).toBe((kept[0]!.value as { keep: unknown }).keep);
  });
});

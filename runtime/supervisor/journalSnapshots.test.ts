import { describe, expect, it } from 'vitest';
import { chain, edge, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { startSnapshot } from '../engine/step.ts';
import { exportJournal } from '../store/jsonLines.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import type { JournalEntry } from './records.ts';
import { Supervisor } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

const loop = flow({
  id: 'loop',
  nodes: [start(), work('tick', { n: 'n + 1', secret: '"s3cr3t"' }), wait('sleep'), end()],
  edges: [
    ...chain('start', 'tick', 'sleep'),
    edge('sleep', 'tick', { when: 'n < 9' }),
    edge('sleep', 'end', { when: 'n >= 9' }),
  ],
});

async function setup() {
  const store = await testStore('journal-snapshots');
  await store.putFlow(loop);
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock);
  return { store, clock, supervisor };
}

/** The entries of the journal, split where a write ended (the entry that keeps a snapshot). */
const writes = (journal: JournalEntry[]) => {
  const out: JournalEntry[][] = [[]];
  for (const e of journal) {
    out[out.length - 1]!.push(e);
    if (e.snapshot) out.push([]);
  }
  return out.filter((w) => w.length > 0);
};

describe('the journal keeps the snapshot after each write', () => {
  it('the last entry of every commit carries the snapshot the process stood at after it, the others none', async () => {
    const { store, supervisor } = await setup();
    await supervisor.start('loop', { id: 'p', context: { n: 0 } });
    const first = await store.journal('p');
    expect(first[0]).toMatchObject({ type: 'started', snapshot: startSnapshot(loop) });
    // The run from start to the first sleep is one commit (group commit): its steps' entries
    // keep no snapshot, its last entry the one it stopped at.
    const ranTick = first.findIndex((e) => e.type === 'ran' && e.node === 'tick');
    expect(first[ranTick - 1]).toMatchObject({ type: 'context-written' });
    expect(first[ranTick - 1]!.snapshot).toBeUndefined();
    expect(first[ranTick]!.snapshot).toBeUndefined();
    expect(first.at(-1)).toMatchObject({ type: 'waited', node: 'sleep' });
    expect(first.at(-1)!.snapshot).toEqual((await supervisor.mustGet('p')).snapshot);
    expect(first.filter((e) => e.snapshot)).toHaveLength(2);

    await supervisor.advanceTo(T0 + 2 * HOUR);
    const journal = await store.journal('p');
    expect(journal.at(-1)!.snapshot).toEqual((await supervisor.mustGet('p')).snapshot);
    // Every write ends with a snapshot: nothing after the last one is left without.
    expect(writes(journal).every((w) => w.at(-1)!.snapshot !== undefined)).toBe(true);
    const woke = journal.filter((e) => e.type === 'woke').length;
    expect(woke).toBe(2);
    // One commit per wake: the woke entry opens it, the next sleep closes it with the snapshot.
    expect(
      writes(journal)
        .slice(-2)
        .map((w) => w.map((e) => e.type)),
    ).toEqual([
      ['woke', 'ran', 'context-written', 'ran', 'waited'],
      ['woke', 'ran', 'context-written', 'ran', 'waited'],
    ]);
  });

  it('stepping from the inspector commits each step, each with its own snapshot', async () => {
    const { store, supervisor } = await setup();
    await supervisor.start('loop', { id: 'p', context: { n: 0 }, paused: true });
    for (let i = 0; i < 3; i++) await supervisor.stepOnce('p');
    const journal = await store.journal('p');
    const steps = writes(journal).slice(1);
    expect(steps.map((w) => w.map((e) => e.type))).toEqual([
      ['ran'],
      ['context-written', 'ran'],
      ['waited'],
    ]);
    expect(steps[1]!.at(-1)!.snapshot?.visits).toEqual({ start: 1, tick: 1 });
  });

  it('the designer’s controls keep a snapshot too: stop, resume, and a restart from start', async () => {
    const { store, supervisor } = await setup();
    await supervisor.start('loop', { id: 'p', context: { n: 0 } });
    await supervisor.stop('p');
    const stopped = (await store.journal('p')).at(-1)!;
    expect(stopped.type).toBe('stopped');
    expect(stopped.snapshot).toEqual((await supervisor.mustGet('p')).snapshot);
    await supervisor.resume('p');
    expect((await store.journal('p')).at(-1)).toMatchObject({
      type: 'resumed',
      snapshot: (await supervisor.mustGet('p')).snapshot,
    });

    await store.putFlow({ ...loop, nodes: [...loop.nodes, work('extra', { x: '1' })] });
    await supervisor.wakeNow('p');
    expect((await supervisor.mustGet('p')).status).toBe('flow-changed');
    await supervisor.resolve('p', 'restart');
    const resolved = (await store.journal('p')).find((e) => e.type === 'resolved')!;
    expect(resolved.snapshot?.visits).toEqual({});
    expect(resolved.snapshot?.scope.ready.map((t) => t.node)).toEqual(['start']);
  });

  it('snapshots hold no context values, and the JSON Lines export keeps them, line by line', async () => {
    const { store, supervisor } = await setup();
    await supervisor.start('loop', { id: 'p', context: { n: 0 } });
    const journal = await store.journal('p');
    const kept = journal.filter((e) => e.snapshot).map((e) => JSON.stringify(e.snapshot));
    expect(kept.length).toBeGreaterThan(1);
    for (const s of kept) expect(s).not.toContain('s3cr3t');
    const lines = (await exportJournal(store, 'p')).trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(journal);
    expect(lines.filter((l) => l.includes('"snapshot":')).length).toBe(kept.length);
  });

  it('keeping snapshots adds no store request: a run to its stop is one commit', async () => {
    const { store, supervisor } = await setup();
    const calls: string[] = [];
    for (const name of ['commitStep', 'putProcess'] as const) {
      const original = store[name].bind(store) as (...a: unknown[]) => Promise<unknown>;
      (store as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        calls.push(name);
        return original(...args);
      };
    }
    await supervisor.start('loop', { id: 'p', context: { n: 0 } });
    const journal = await store.journal('p');
    // started (one putProcess), then the steps start, tick and sleep in one commit.
    expect(calls).toEqual(['putProcess', 'commitStep']);
    expect(journal.filter((e) => e.snapshot)).toHaveLength(2);
  });
});

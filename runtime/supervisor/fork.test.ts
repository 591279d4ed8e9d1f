import { describe, expect, it } from 'vitest';
import { chain, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { pastContext } from './pastContext.ts';
import type { JournalEntry } from './records.ts';
import { Supervisor, SupervisorError } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);

// Counts up, asks for an answer, then writes what the answer made of the count.
const ask = flow({
  id: 'ask',
  nodes: [
    start(),
    work('count', { n: 'n + 1' }),
    wait('question', [{ id: 'answer', event: 'answer', into: 'reply' }]),
    work('use', { result: 'reply & " " & $string(n)' }),
    end(),
  ],
  edges: chain('start', 'count', 'question', 'use', 'end'),
});

async function setup() {
  const store = await testStore('fork');
  await store.putFlow(ask);
  const supervisor = new Supervisor(store, new VirtualClock(T0));
  await supervisor.start('ask', { id: 'p', context: { n: 1 } });
  await supervisor.deliverEvent('answer', 'yes', 'p');
  return { store, supervisor };
}

const seqOf = (e: JournalEntry) => (e as { seq?: number }).seq!;
const waitedAt = (journal: JournalEntry[]) => journal.findIndex((e) => e.type === 'waited');

describe('the context as of a journal entry (pastContext)', () => {
  it('rule: rebuilt from the context the process started on and the changes up to that entry, old → new, with who wrote them', async () => {
    const { store } = await setup();
    const journal = await store.journal('p');
    const changes = await store.contextChanges((await store.getProcess('p'))!.contextId);
    expect(pastContext(journal, 0, changes)).toEqual({
      ok: true,
      version: 0,
      value: { n: 1 },
      writes: [],
    });
    const then = pastContext(journal, waitedAt(journal), changes);
    expect(then).toEqual({
      ok: true,
      version: 1,
      value: { n: 2 },
      writes: [{ path: 'n', before: 1, after: 2, process: 'p', node: 'count', version: 1, at: T0 }],
    });
    // The live context went on: the answer and what `use` made of it.
    expect((await store.getContext((await store.getProcess('p'))!.contextId))!.value).toEqual({
      n: 2,
      reply: 'yes',
      result: 'yes 2',
    });
  });

  it('rule: a journal whose start did not record its context says it cannot rebuild, rather than guess', () => {
    const journal: JournalEntry[] = [
      { type: 'started', flow: 'ask', contextId: 'c', process: 'p', at: T0 },
    ];
    const past = pastContext(journal, 0, []);
    expect(past.ok).toBe(false);
    expect(!past.ok && past.problem).toMatch(/does not hold the context this process started on/);
  });

  it('rule: changes no longer kept between the start and the entry are named, not skipped', () => {
    const journal: JournalEntry[] = [
      {
        type: 'started',
        flow: 'ask',
        contextId: 'c',
        process: 'p',
        at: T0,
        context: { version: 0, value: {} },
      },
      {
        type: 'context-written',
        node: 'count',
        writes: [{ path: 'n', value: 3 }],
        process: 'p',
        at: T0 + 5,
      },
    ];
    const changes = [
      {
        contextId: 'c',
        version: 3,
        process: 'p',
        node: 'count',
        writes: [{ path: 'n', value: 3 }],
        at: T0 + 5,
      },
    ];
    const past = pastContext(journal, 1, changes);
    expect(!past.ok && past.problem).toMatch(/from version 1 to 2 are no longer kept/);
  });
});

describe('fork from a journal entry (Supervisor.fork)', () => {
  it('rule: a fork on the past context stands where the entry kept the process, on a copy of the context as of then, and can take another answer', async () => {
    const { store, supervisor } = await setup();
    const journal = await store.journal('p');
    const source = (await store.getProcess('p'))!;
    const forked = await supervisor.fork('p', {
      seq: seqOf(journal[waitedAt(journal)]!),
      context: 'past',
      id: 'q',
    });
    expect(forked.status).toBe('waiting');
    expect(forked.waitsFor).toEqual(['answer']);
    expect(forked.contextId).not.toBe(source.contextId);
    expect((await store.getContext(forked.contextId))!.value).toEqual({ n: 2 });
    const first = (await store.journal('q'))[0]!;
    expect(first).toMatchObject({
      type: 'started',
      flow: 'ask',
      from: { process: 'p', seq: seqOf(journal[waitedAt(journal)]!), context: 'past' },
    });
    // The snapshot holds no context values (docs/format.md#the-context-the-snapshot-and-the-signature).
    expect(JSON.stringify(first.snapshot)).not.toContain('"n"');

    await supervisor.deliverEvent('answer', 'no', 'q');
    expect((await supervisor.mustGet('q')).status).toBe('done');
    expect((await store.getContext(forked.contextId))!.value).toEqual({
      n: 2,
      reply: 'no',
      result: 'no 2',
    });
    // The source's context is not the fork's.
    expect((await store.getContext(source.contextId))!.value).toMatchObject({ reply: 'yes' });
  });

  it('rule: a fork on the live context shares the source’s context and reads what is true now', async () => {
    const { store, supervisor } = await setup();
    const journal = await store.journal('p');
    const source = (await store.getProcess('p'))!;
    const forked = await supervisor.fork('p', {
      seq: seqOf(journal[waitedAt(journal)]!),
      context: 'live',
      id: 'q',
    });
    expect(forked.contextId).toBe(source.contextId);
    await supervisor.deliverEvent('answer', 'again', 'q');
    expect((await store.getContext(source.contextId))!.value).toEqual({
      n: 2,
      reply: 'again',
      result: 'again 2',
    });
  });

  it('rule: a fork from an entry that does not exist, or with an unknown context choice, is refused and stores nothing', async () => {
    const { store, supervisor } = await setup();
    const before = (await store.listProcesses()).length;
    await expect(supervisor.fork('p', { seq: 99_999, context: 'past' })).rejects.toThrow(
      /process "p" has no journal entry 99999/,
    );
    const seq = seqOf((await store.journal('p'))[0]!);
    await expect(supervisor.fork('p', { seq, context: 'copy' as never })).rejects.toThrow(
      SupervisorError,
    );
    await expect(supervisor.fork('nobody', { seq, context: 'live' })).rejects.toThrow(
      /there is no process "nobody" to fork/,
    );
    expect(await store.listProcesses()).toHaveLength(before);
  });
});

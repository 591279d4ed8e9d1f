import type * as restate from '@restatedev/restate-sdk';
import { describe, expect, it } from 'vitest';
import type { JournalEntry, ProcessRecord } from '../supervisor/records.ts';
import { fakeStateAccess } from './fixtures/fakeState.ts';
import { waitingRecord } from './fixtures/waitingRecord.ts';
import { ProcessStore } from './processStore.ts';

/** An exclusive handler's context with only what ProcessStore's own state needs: a key, state. */
function fakeContext(key: string) {
  const state = new Map<string, string>();
  const sent: string[] = [];
  const ctx = {
    key,
    ...fakeStateAccess(state),
    objectSendClient: (object: { name: string }, to: string) => ({
      register: (id: string) => void sent.push(`${object.name}/${to}/register ${id}`),
    }),
  };
  return { ctx: ctx as unknown as restate.ObjectContext, state, sent };
}

const record = (id: string): ProcessRecord => waitingRecord({ id });

const entries = (from: number, n: number): JournalEntry[] =>
  Array.from({ length: n }, (_, i) => ({ type: 'resumed', process: 'p', at: from + i }));

describe('ProcessStore, the supervisor store inside a process object', () => {
  it('keeps the journal in order across pages, whatever the batch sizes', async () => {
    const { ctx, state } = fakeContext('p');
    const store = new ProcessStore(ctx, { createdAt: () => 1 });
    let at = 0;
    for (const n of [1, 62, 1, 1, 130, 0, 3]) {
      await store.putProcess(record('p'), entries(at, n));
      at += n;
    }
    const journal = await store.journal('p');
    expect(journal.map((e) => e.at)).toEqual(Array.from({ length: at }, (_, i) => i));
    // Pages of 64: what an append rewrites stays small however long the journal grows.
    expect([...state.keys()].filter((k) => k.startsWith('journal:'))).toHaveLength(4);
  });

  it('rule: a new process is ordered by when it was made, the registry told one way, once', async () => {
    const { ctx, sent } = fakeContext('p');
    const store = new ProcessStore(ctx, { createdAt: () => 7_001 });
    await store.putProcess(record('p'));
    await store.putProcess(record('p'));
    expect((await store.getProcess('p'))?.created).toBe(7_001);
    expect(sent).toEqual(['registry/all/register p']);
    expect((await store.listProcesses()).map((r) => r.id)).toEqual(['p']);
    expect(await store.dueProcesses(4)).toEqual([]);
    expect((await store.dueProcesses(5)).map((r) => r.id)).toEqual(['p']);
    await expect(store.putProcess(record('q'))).rejects.toThrow(
      'process "p" cannot write process "q"',
    );
  });
});

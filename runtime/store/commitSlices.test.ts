import { describe, expect, it } from 'vitest';
import type { ContextChange, JournalEntry, ProcessRecord } from '../supervisor/records.ts';
import { processRecord } from './fixtures/processRecord.ts';
import { testStore } from './fixtures/testStore.ts';

/**
 * A commit asks for its writes in slices of `commitSliceMs` (idbStore.ts, COMMIT_SLICE_MS): past
 * a slice it waits for its last request's answer before asking for more, in the same
 * transaction. With a slice of 0 ms every write is awaited: the commit must still land whole,
 * and its compare-and-set still decide for all of it.
 */

const CHANGES = 300;

function bigCommit(record: ProcessRecord, expectedVersion: number) {
  const changes: ContextChange[] = Array.from({ length: CHANGES }, (_, i) => ({
    contextId: 'c',
    version: expectedVersion + i + 1,
    process: record.id,
    node: `b${i}`,
    writes: [{ path: `b${i}`, value: true }],
    at: 0,
  }));
  const journal: JournalEntry[] = Array.from({ length: CHANGES }, (_, i) => ({
    type: 'ran',
    node: `b${i}`,
    gen: [],
    process: record.id,
    at: 0,
  }));
  const value = Object.fromEntries(changes.map((c) => [c.node, true]));
  return {
    process: { ...record, wakes: 1 },
    context: { id: 'c', expectedVersion, write: { value, changes } },
    journal,
  };
}

describe('a commit asked for in slices', () => {
  it('rule: a commit whose every write is awaited (a slice of 0 ms) lands whole, and a stale one writes nothing', async () => {
    const store = await testStore('slices');
    store.commitSliceMs = 0;
    const record = processRecord('p');
    await store.putContext({ id: 'c', version: 0, value: {} }, null);
    await store.putProcess(record);
    expect(await store.commitStep(bigCommit(record, 0))).toBe(true);
    expect(await store.getContext('c')).toMatchObject({ version: CHANGES });
    expect(await store.contextChanges('c')).toHaveLength(CHANGES);
    expect(await store.journal('p')).toHaveLength(CHANGES);
    expect((await store.getProcess('p'))?.wakes).toBe(1);
    // Stale: expects version 0 again. Nothing of it is written.
    expect(await store.commitStep(bigCommit({ ...record, wakes: 5 }, 0))).toBe(false);
    expect(await store.contextChanges('c')).toHaveLength(CHANGES);
    expect(await store.journal('p')).toHaveLength(CHANGES);
    expect((await store.getProcess('p'))?.wakes).toBe(1);
  });
});

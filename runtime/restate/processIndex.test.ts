import type * as restate from '@restatedev/restate-sdk';
import { describe, expect, it } from 'vitest';
import type { ProcessRecord } from '../supervisor/records.ts';
import { waitingRecord } from './fixtures/waitingRecord.ts';
import { noteRow, ROW_ERROR_CHARS } from './processIndex.ts';

/** A process's handler context as noteRow uses it: its state, and the one-way sends it makes. */
function fakeContext() {
  const state = new Map<string, unknown>();
  const notes: { to: string; row: unknown }[] = [];
  const ctx = {
    get: async (name: string) => (state.has(name) ? structuredClone(state.get(name)) : null),
    set: (name: string, value: unknown) => state.set(name, structuredClone(value)),
    objectSendClient: (object: { name: string }, key: string) => ({
      note: (row: unknown) => notes.push({ to: `${object.name}/${key}`, row }),
    }),
  };
  return { ctx: ctx as unknown as restate.ObjectContext, notes };
}

const record = (over: Partial<ProcessRecord> = {}) => waitingRecord({ created: 7, ...over });

describe('a process tells the index its row (processIndex.ts#noteRow)', () => {
  it('when a listed field changed, and only then, numbered so the index keeps the newest', async () => {
    const { ctx, notes } = fakeContext();
    await noteRow(ctx, record());
    // A step that moves only the snapshot changes nothing the table shows.
    await noteRow(ctx, record({ snapshot: { ...record().snapshot, seq: 2 } }));
    await noteRow(ctx, record({ status: 'failed', due: null, error: 'x'.repeat(900) }));
    expect(notes.map((n) => n.to)).toEqual(['processIndex/all', 'processIndex/all']);
    expect(notes[0]!.row).toEqual({
      id: 'p',
      flow: 'f',
      status: 'waiting',
      created: 7,
      due: 5,
      error: null,
      wakes: 0,
      v: 1,
    });
    const failed = notes[1]!.row as { v: number; status: string; error: string };
    expect([failed.v, failed.status]).toEqual([2, 'failed']);
    // A row keeps the start of a long failure; the inspector reads all of it from the process.
    expect(failed.error).toHaveLength(ROW_ERROR_CHARS);
    expect(failed.error.endsWith('…')).toBe(true);
  });
});

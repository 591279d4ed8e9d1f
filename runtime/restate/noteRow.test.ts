import type * as restate from '@restatedev/restate-sdk';
import { describe, expect, it } from 'vitest';
import type { ProcessRecord } from '../supervisor/records.ts';
import { fakeStateAccess } from './fixtures/fakeState.ts';
import { waitingRecord } from './fixtures/waitingRecord.ts';
import { NOTE_EVERY_MS, noteRow } from './noteRow.ts';
import { ObjectState } from './objectState.ts';
import { ROW_ERROR_CHARS } from './processIndex.ts';
import { ProcessMetaState } from './processMeta.ts';

/** A process's handler context as noteRow uses it: its meta, and the one-way sends it makes. */
function fakeContext() {
  const notes: { to: string; row: unknown }[] = [];
  const ctx = {
    ...fakeStateAccess(new Map()),
    objectSendClient: (object: { name: string }, key: string) => ({
      note: (row: unknown) => notes.push({ to: `${object.name}/${key}`, row }),
    }),
  };
  const typed = ctx as unknown as restate.ObjectContext;
  return { ctx: typed, state: new ProcessMetaState(new ObjectState(typed)), notes };
}

/** A process asleep for a minute, as most rows of the table are. */
const record = (over: Partial<ProcessRecord> = {}) =>
  waitingRecord({ created: 7, due: 60_000, ...over });

describe('a process tells the index its row (noteRow.ts)', () => {
  it('when a listed field changed, and only then, numbered so the index keeps the newest', async () => {
    const { ctx, state, notes } = fakeContext();
    await noteRow(ctx, state, record(), 0);
    // A step that moves only the snapshot changes nothing the table shows.
    await noteRow(ctx, state, record({ snapshot: { ...record().snapshot, seq: 2 } }), 1);
    await noteRow(ctx, state, record({ status: 'failed', due: null, error: 'x'.repeat(900) }), 2);
    expect(notes.map((n) => n.to)).toEqual(['processIndex/all', 'processIndex/all']);
    expect(notes[0]!.row).toEqual({
      id: 'p',
      flow: 'f',
      status: 'waiting',
      created: 7,
      due: 60_000,
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

  it('rule: a row whose due time alone moved, due again soon, waits for a later note, never longer than NOTE_EVERY_MS (a new one too)', async () => {
    const { ctx, state, notes } = fakeContext();
    const every = NOTE_EVERY_MS;
    // A loop of one-second timers: not noted at its start nor at each wake before the first
    // NOTE_EVERY_MS are out (its row kept unsent)...
    await noteRow(ctx, state, record({ due: 1_000, wakes: 0 }), 0);
    await noteRow(ctx, state, record({ due: 2_000, wakes: 1 }), 1_000);
    await noteRow(ctx, state, record({ due: every - 1, wakes: 2 }), every - 1_000);
    expect(notes).toEqual([]);
    // ...then the wake notes the row as it now is, and again once in NOTE_EVERY_MS.
    await noteRow(ctx, state, record({ due: every + 1_000, wakes: 5 }), every);
    expect(notes.at(-1)!.row).toMatchObject({ due: every + 1_000, wakes: 5, v: 1 });
    await noteRow(ctx, state, record({ due: every + 2_000, wakes: 6 }), every + 1_000);
    expect(notes).toHaveLength(1);
    // A row that will stand is noted at once: a longer wait, another status.
    await noteRow(ctx, state, record({ due: 3 * every, wakes: 7 }), every + 1_500);
    await noteRow(ctx, state, record({ status: 'done', due: null, wakes: 8 }), every + 1_501);
    expect(notes.map((n) => (n.row as { v: number }).v)).toEqual([1, 2, 3]);
    expect(notes.at(-1)!.row).toMatchObject({ status: 'done', due: null });
  });
});

import type * as restate from '@restatedev/restate-sdk';
import type { ProcessRecord } from '../supervisor/records.ts';
import {
  processIndex,
  PROCESS_INDEX_KEY,
  ROW_ERROR_CHARS,
  type IndexedRow,
} from './processIndex.ts';
import type { Listed, ProcessMetaState } from './processMeta.ts';

/**
 * How far behind a row may be when only its due time and wake count moved: a process that wakes
 * again within this tells the index then, so a loop of short timers notes its row once in so
 * long rather than at every wake (each note is an invocation of the one index object).
 */
export const NOTE_EVERY_MS = 5_000;

/**
 * Tells the index the process's row when what it lists changed, once per invocation at most (at
 * its settle, not at each step: a start's "running" never reaches the table): a one-way send, so
 * a handler never waits on the index, numbered so that the index keeps the newest.
 *
 * A row whose status, error, flow and order stayed the same, of a process due again in less than
 * NOTE_EVERY_MS, is not noted if the last note is less than NOTE_EVERY_MS old: the wake then
 * notes it. A new process due that soon is noted by that wake too (its row kept, unsent, as v 0).
 * So a row is never behind for longer than that, or than the process's timer is late, and a row
 * that will stand (a longer wait, another status) is noted at once.
 */
export async function noteRow(
  ctx: restate.ObjectContext,
  meta: ProcessMetaState,
  record: ProcessRecord,
  now: number,
): Promise<void> {
  const held = await meta.get('listed');
  const row = indexedRow(record, (held?.v ?? 0) + 1);
  const soon = record.status === 'waiting' && row.due !== null && row.due - now < NOTE_EVERY_MS;
  if (held) {
    const { at = -Infinity, ...last } = held;
    const sent = last.v > 0;
    if (sent && JSON.stringify({ ...last, v: row.v }) === JSON.stringify(row)) return;
    const same = (k: keyof IndexedRow) => last[k] === row[k];
    const recent = now - at < NOTE_EVERY_MS;
    if (same('status') && same('error') && same('flow') && same('created') && soon && recent)
      return;
  } else if (soon) {
    await meta.set('listed', { ...row, v: 0, at: now } satisfies Listed);
    return;
  }
  await meta.set('listed', { ...row, at: now } satisfies Listed);
  ctx.objectSendClient(processIndex, PROCESS_INDEX_KEY).note(row);
}

/** The row a process notes: its listed fields, its error cut to what a row shows. */
function indexedRow(r: ProcessRecord, v: number): IndexedRow {
  const error =
    r.error === null || r.error.length <= ROW_ERROR_CHARS
      ? r.error
      : `${r.error.slice(0, ROW_ERROR_CHARS - 1)}…`;
  return {
    id: r.id,
    flow: r.flow,
    status: r.status,
    created: r.created,
    due: r.due,
    error,
    wakes: r.wakes ?? 0,
    v,
  };
}

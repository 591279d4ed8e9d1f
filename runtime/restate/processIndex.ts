import * as restate from '@restatedev/restate-sdk';
import { z } from '../../shared/zod.ts';
import { countsOf, windowOf, type ListedFields } from '../store/listWindow.ts';
import type { ProcessCounts } from '../supervisor/store.ts';
import { changesInput, checkInput, countsInput, idsInput, pageInput } from './processInput.ts';

/**
 * The process table's index on a server (docs/restate.md, "Polling"): one row per process with
 * what the table shows and sorts by, kept by the processes themselves (a one-way `note` when
 * those fields change, see `noteRow`), so that a window of 10,000 processes and its counts are
 * one call that reads no process. Rows sit in BUCKETS chunks by a hash of their id, each chunk
 * stamped with the last change it took, so that "what changed since" reads only the chunks that
 * did, and a note reads and writes one chunk of about a 64th of the rows.
 */
export interface IndexedRow extends ListedFields {
  due: number | null;
  error: string | null;
  wakes: number;
  /** The process's own count of its notes: a note older than the row it would replace is dropped. */
  v: number;
}

type Stored = IndexedRow & { stamp: number };

/** The chunks rows are spread over by their id (`bucketOf`). */
const BUCKETS = 64;
/** A failure's message as a row keeps it: the inspector reads the whole one from the process. */
export const ROW_ERROR_CHARS = 500;

/** The one key of the index object. */
export const PROCESS_INDEX_KEY = 'all';

export interface IndexPage {
  rows: IndexedRow[];
  /** Rows under the query's filter and search. */
  total: number;
  counts: ProcessCounts;
  /** Every process the index holds. */
  all: number;
  /** The index's stamp as read: changes after it are what `changes` answers next. */
  stamp: number;
}

function checked<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = checkInput(schema, input);
  if (!result.ok) throw new restate.TerminalError(result.errors.join('\n'), { errorCode: 400 });
  return result.value;
}

/**
 * The index's last stamp and each chunk's (0: empty), in one key: a note reads it with its chunk.
 * `layout` 2: chunks by a hash of the id; absent: the first layout, by order of creation, which
 * the first note after it migrates.
 */
interface Meta {
  stamp: number;
  chunks: number[];
  layout?: 2;
}

async function meta(ctx: restate.ObjectSharedContext): Promise<Meta> {
  return (await ctx.get<Meta>('meta')) ?? { stamp: 0, chunks: [] };
}

async function chunk(ctx: restate.ObjectSharedContext, i: number): Promise<Record<string, Stored>> {
  return (await ctx.get<Record<string, Stored>>(`rows:${i}`)) ?? {};
}

/**
 * Every row, read chunk by chunk (those that hold any); `stamps` is the index's meta when the
 * caller has it. Either layout is read so: where a row sits matters only to a note.
 */
async function allRows(ctx: restate.ObjectSharedContext, stamps?: number[]): Promise<Stored[]> {
  const held = (stamps ?? (await meta(ctx)).chunks).flatMap((s, i) => (s > 0 ? [i] : []));
  const chunks = await Promise.all(held.map((i) => chunk(ctx, i)));
  return chunks.flatMap((rows) => Object.values(rows));
}

/** The chunk of a row: FNV-1a of its id, so that rows spread evenly whatever their names. */
export function bucketOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % BUCKETS;
}

/**
 * Moves an index of the first layout (chunks of 250 rows by order of creation) to chunks by id,
 * once: every row is stamped anew, so a reader asking what changed reads them all again. Gives
 * the new meta and chunks.
 */
async function migrate(
  ctx: restate.ObjectContext,
  m: Meta,
): Promise<{ meta: Meta; chunks: Record<string, Stored>[] }> {
  const rows = await allRows(ctx, m.chunks);
  const stamp = m.stamp + 1;
  const chunks: Record<string, Stored>[] = Array.from({ length: BUCKETS }, () => ({}));
  for (const row of rows) chunks[bucketOf(row.id)]![row.id] = { ...row, stamp };
  // Only keys the first layout wrote are cleared: a fresh index writes nothing here.
  for (let i = BUCKETS; i < m.chunks.length; i++) if (m.chunks[i]! > 0) ctx.clear(`rows:${i}`);
  const stamps = chunks.map((rows, i) => {
    const empty = Object.keys(rows).length === 0;
    if (!empty) ctx.set(`rows:${i}`, rows);
    else if ((m.chunks[i] ?? 0) > 0) ctx.clear(`rows:${i}`);
    return empty ? 0 : stamp;
  });
  return { meta: { stamp, chunks: stamps, layout: 2 }, chunks };
}

const rowOf = ({ stamp: _stamp, ...row }: Stored): IndexedRow => row;

export const processIndex = restate.object({
  name: 'processIndex',
  // Lazy state: a note reads one chunk of the index, not the whole of it, which Restate would
  // otherwise send with every invocation (a megabyte at 10,000 processes).
  options: { enableLazyState: true },
  handlers: {
    /** A process's listed fields as they now are; sent by the process, never by the ingress. */
    note: restate.handlers.object.exclusive(
      { ingressPrivate: true },
      async (ctx: restate.ObjectContext, row: IndexedRow): Promise<void> => {
        const at = bucketOf(row.id);
        let [rows, m] = await Promise.all([chunk(ctx, at), meta(ctx)]);
        if (m.layout !== 2) {
          const moved = await migrate(ctx, m);
          m = moved.meta;
          rows = moved.chunks[at]!;
        }
        const held = rows[row.id];
        if (held && held.v >= row.v) return;
        const stamp = m.stamp + 1;
        rows[row.id] = { ...row, stamp };
        ctx.set(`rows:${at}`, rows);
        const chunks = Array.from({ length: BUCKETS }, (_, i) => m.chunks[i] ?? 0);
        chunks[at] = stamp;
        ctx.set('meta', { stamp, chunks, layout: 2 });
      },
    ),
    /** The table's window, its total and the counts by status, as the browser's store answers. */
    page: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext, input: unknown): Promise<IndexPage> => {
        const query = checked(pageInput, input);
        const { stamp, chunks } = await meta(ctx);
        const all = await allRows(ctx, chunks);
        const counts = countsOf(all, undefined, query.search);
        return {
          rows: windowOf(all, query).map(rowOf),
          total: query.status === undefined ? counts.total : (counts.byStatus[query.status] ?? 0),
          counts,
          all: all.length,
          stamp,
        };
      },
    ),
    /**
     * The ids of the processes whose row changed after `since` (every one when the index holds
     * less than `since`, as after it was reset), and the stamp to ask from next. Without `since`,
     * the stamp alone.
     */
    changes: restate.handlers.object.shared(
      async (
        ctx: restate.ObjectSharedContext,
        input: unknown,
      ): Promise<{ stamp: number; ids: string[] }> => {
        const { since } = checked(changesInput, input ?? {});
        const { stamp, chunks: stamps } = await meta(ctx);
        if (since === undefined || since === stamp) return { stamp, ids: [] };
        const after = since > stamp ? 0 : since;
        const changed = stamps.flatMap((s, i) => (s > after ? [i] : []));
        const chunks = await Promise.all(changed.map((i) => chunk(ctx, i)));
        const ids = chunks.flatMap((rows) =>
          Object.values(rows).flatMap((row) => (row.stamp > after ? [row.id] : [])),
        );
        return { stamp, ids };
      },
    ),
    counts: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext, input: unknown): Promise<ProcessCounts> => {
        const { flow } = checked(countsInput, input ?? {});
        return countsOf(await allRows(ctx), flow);
      },
    ),
    /** The ids of a flow's processes in one status, oldest first (the "for all" choices). */
    ids: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext, input: unknown): Promise<string[]> => {
        const { flow, status } = checked(idsInput, input);
        return windowOf(await allRows(ctx), { offset: 0, limit: Infinity, flow, status }).map(
          (p) => p.id,
        );
      },
    ),
    /** Every process's id and flow, oldest first (Start's "share the context of"). */
    names: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<{ id: string; flow: string }[]> =>
        windowOf(await allRows(ctx), { offset: 0, limit: Infinity }).map((p) => ({
          id: p.id,
          flow: p.flow,
        })),
    ),
  },
});

import type * as restate from '@restatedev/restate-sdk';
import { describe, expect, it } from 'vitest';
import type { ProcessRecord } from '../supervisor/records.ts';
import { fakeStateAccess } from './fixtures/fakeState.ts';
import { waitingRecord } from './fixtures/waitingRecord.ts';
import { ObjectState } from './objectState.ts';
import {
  bucketOf,
  NOTE_EVERY_MS,
  noteRow,
  processIndex,
  ROW_ERROR_CHARS,
  type IndexedRow,
  type IndexPage,
} from './processIndex.ts';

/** A process's handler context as noteRow uses it: its state, and the one-way sends it makes. */
function fakeContext() {
  const notes: { to: string; row: unknown }[] = [];
  const ctx = {
    ...fakeStateAccess(new Map()),
    objectSendClient: (object: { name: string }, key: string) => ({
      note: (row: unknown) => notes.push({ to: `${object.name}/${key}`, row }),
    }),
  };
  const typed = ctx as unknown as restate.ObjectContext;
  return { ctx: typed, state: new ObjectState(typed), notes };
}

const record = (over: Partial<ProcessRecord> = {}) => waitingRecord({ created: 7, ...over });

describe('a process tells the index its row (processIndex.ts#noteRow)', () => {
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

  it('rule: a row whose due time alone moved, due again soon, waits for a later note, never longer than NOTE_EVERY_MS', async () => {
    const { ctx, state, notes } = fakeContext();
    const every = NOTE_EVERY_MS;
    // A loop of one-second timers: noted at its start, then not at each wake.
    await noteRow(ctx, state, record({ due: 1_000, wakes: 0 }), 0);
    await noteRow(ctx, state, record({ due: 2_000, wakes: 1 }), 1_000);
    await noteRow(ctx, state, record({ due: every - 1, wakes: 2 }), every - 1_000);
    expect(notes.map((n) => (n.row as { due: number }).due)).toEqual([1_000]);
    // Once the last note is NOTE_EVERY_MS old, the wake notes the row as it now is.
    await noteRow(ctx, state, record({ due: every + 1_000, wakes: 5 }), every);
    expect(notes.at(-1)!.row).toMatchObject({ due: every + 1_000, wakes: 5, v: 2 });
    // A row that will stand is noted at once: a longer wait, another status.
    await noteRow(ctx, state, record({ due: 3 * every, wakes: 6 }), every + 1_000);
    await noteRow(ctx, state, record({ status: 'done', due: null, wakes: 7 }), every + 1_001);
    expect(notes.map((n) => (n.row as { v: number }).v)).toEqual([1, 2, 3, 4]);
    expect(notes.at(-1)!.row).toMatchObject({ status: 'done', due: null });
  });
});

/** The index object's own handlers, called as Restate calls them, on state kept as JSON. */
function indexObject(initial: Record<string, unknown>) {
  const state = new Map(Object.entries(initial).map(([k, v]) => [k, JSON.stringify(v)]));
  const ctx = { key: 'all', ...fakeStateAccess(state) } as unknown as restate.ObjectContext;
  const handlers = (processIndex as unknown as { object: Record<string, Handler> }).object;
  return {
    state,
    note: (row: IndexedRow) => handlers.note!(ctx, row),
    page: (query: unknown) => handlers.page!(ctx, query) as Promise<IndexPage>,
  };
}
type Handler = (ctx: unknown, input?: unknown) => Promise<unknown>;

const row = (id: string, created: number, v = 1): IndexedRow => ({
  id,
  flow: 'f',
  status: 'waiting',
  created,
  due: 5,
  error: null,
  wakes: 0,
  v,
});

describe('the index keeps its rows in chunks by a hash of the id (processIndex.ts)', () => {
  it('rule: an index of the first layout, by order of creation, is moved whole at its first note, no row lost', async () => {
    // Two chunks of the first layout: rows 0..249 and 250..499.
    const index = indexObject({
      meta: { stamp: 3, chunks: [2, 3] },
      'rows:0': { a: { ...row('a', 0), stamp: 2 } },
      'rows:1': { b: { ...row('b', 250), stamp: 3 } },
    });
    await index.note(row('b', 250, 2));
    const meta = JSON.parse(index.state.get('meta')!) as { layout: number; chunks: number[] };
    expect(meta.layout).toBe(2);
    expect(meta.chunks).toHaveLength(256);
    const at = (id: string) => JSON.parse(index.state.get(`rows:${bucketOf(id)}`)!);
    expect(at('a').a).toMatchObject({ id: 'a', v: 1 });
    expect(at('b').b).toMatchObject({ id: 'b', v: 2 });
    // The first layout's chunks are gone unless a bucket of the new one took their key.
    for (const key of ['rows:0', 'rows:1'])
      if (![bucketOf('a'), bucketOf('b')].map((b) => `rows:${b}`).includes(key))
        expect(index.state.has(key)).toBe(false);
    const page = await index.page({ offset: 0, limit: 10 });
    expect(page.rows.map((r) => [r.id, r.v])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect(page.counts.total).toBe(2);
  });

  it('rule: a note reads and writes only its own chunk, and a fresh index writes nothing else', async () => {
    const index = indexObject({});
    await index.note(row('x', 1));
    expect([...index.state.keys()].sort()).toEqual(['meta', `rows:${bucketOf('x')}`].sort());
    // A note older than the row held is dropped.
    await index.note(row('x', 1, 1));
    await index.note({ ...row('x', 1, 0), status: 'done' });
    expect((await index.page({ offset: 0, limit: 10 })).rows[0]).toMatchObject({
      status: 'waiting',
    });
  });
});

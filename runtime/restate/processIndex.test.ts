import type * as restate from '@restatedev/restate-sdk';
import { describe, expect, it } from 'vitest';
import { fakeStateAccess } from './fixtures/fakeState.ts';
import { bucketOf, processIndex, type IndexedRow, type IndexPage } from './processIndex.ts';

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
    expect(meta.chunks).toHaveLength(64);
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

import { describe, expect, it } from 'vitest';
import { sleeperFlow as sleeper } from '../fixtures/sleeperFlow.ts';
import type { IndexPage } from '../processIndex.ts';
import { ingress, uniquePrefix, until } from './ingress.ts';

// The process table's index on a server (processIndex.ts; docs/restate.md, "Polling"): kept by
// the processes as they change, asked for a window and its counts in one call. Other test files
// share the server, so each query searches this test's own prefix.
describe('the process index', () => {
  const api = ingress();
  const page = (query: unknown) => api.call<IndexPage>('/processIndex/all/page', query);
  const changes = (since?: number) =>
    api.call<{ stamp: number; ids: string[] }>(
      '/processIndex/all/changes',
      since === undefined ? {} : { since },
    );
  const mine = async (p: string, query: Record<string, unknown> = {}) => {
    const answer = await page({ offset: 0, limit: 50, search: { text: p }, ...query });
    if (!answer.ok) throw new Error(answer.error);
    return answer.value;
  };

  it('lists a window of the processes with the counts by status, as they change', async () => {
    const p = uniquePrefix('index');
    expect((await api.deploy(JSON.stringify(sleeper(`${p}flow`)))).ok).toBe(true);
    for (const name of ['a', 'b', 'c'])
      expect((await api.start(`${p}${name}`, { flow: `${p}flow` })).ok).toBe(true);
    // The index is told one way, after each step: asked until it has taken the starts.
    await until(
      () => mine(p),
      (v) => v.counts.byStatus.waiting === 3,
    );
    const before = await changes();
    if (!before.ok) throw new Error(before.error);
    const { stamp } = before.value;
    expect((await api.call(`/process/${p}b/wakeNow`)).ok).toBe(true);

    const listed = await until(
      () => mine(p),
      (v) => v.counts.byStatus.done === 1,
    );
    expect(listed.rows.map((r) => [r.id, r.status])).toEqual([
      [`${p}a`, 'waiting'],
      [`${p}b`, 'done'],
      [`${p}c`, 'waiting'],
    ]);
    expect(listed.counts).toEqual({ total: 3, byStatus: { waiting: 2, done: 1 } });
    expect(listed.total).toBe(3);
    expect(listed.all).toBeGreaterThanOrEqual(3);
    expect(listed.rows[0]!.due).toBeGreaterThan(Date.now());

    // A window, a status, an order: as the browser's store answers them.
    expect((await mine(p, { offset: 1, limit: 1 })).rows.map((r) => r.id)).toEqual([`${p}b`]);
    const waiting = await mine(p, { status: 'waiting' });
    expect([waiting.total, waiting.rows.map((r) => r.id)]).toEqual([2, [`${p}a`, `${p}c`]]);
    const newest = await mine(p, { order: { by: 'created', desc: true } });
    expect(newest.rows.map((r) => r.id)).toEqual([`${p}c`, `${p}b`, `${p}a`]);

    // What changed since a stamp: the woken process, not the others.
    const since = await changes(stamp);
    if (!since.ok) throw new Error(since.error);
    expect(since.value.ids).toContain(`${p}b`);
    expect(since.value.ids).not.toContain(`${p}a`);
    expect(since.value.stamp).toBeGreaterThan(stamp);
    const none = await changes(since.value.stamp);
    expect(none.ok && none.value.ids.filter((id) => id.startsWith(p))).toEqual([]);

    // The "for all" choices and Start's list read the same rows.
    const ids = await api.call<string[]>('/processIndex/all/ids', {
      flow: `${p}flow`,
      status: 'waiting',
    });
    expect(ids).toEqual({ ok: true, value: [`${p}a`, `${p}c`] });
    const names = await api.call<{ id: string; flow: string }[]>('/processIndex/all/names');
    expect(names.ok && names.value.filter((n) => n.id.startsWith(p))).toEqual(
      ['a', 'b', 'c'].map((n) => ({ id: `${p}${n}`, flow: `${p}flow` })),
    );
  });

  it('refuses a window out of bounds, a hostile search and a note from outside, saying which', async () => {
    for (const [query, named] of [
      [{ offset: 0, limit: 0 }, 'limit'],
      [{ offset: 0, limit: 501 }, 'limit'],
      [{ offset: -1, limit: 10 }, 'offset'],
      [{ offset: 0, limit: 10, status: 'asleep' }, 'status'],
      [{ offset: 0, limit: 10, order: { by: 'colour', desc: false } }, 'order'],
      [{ offset: 0, limit: 10, search: { text: 'x'.repeat(100_000) } }, 'search'],
      [{ offset: 0, limit: 10, drop: 'tables' }, 'drop'],
      ['everything', ''],
    ] as const) {
      const bad = await page(query);
      expect(bad).toMatchObject({ ok: false, status: 400 });
      expect(!bad.ok && bad.error).toContain(named);
    }
    expect(await changes(-1)).toMatchObject({ ok: false, status: 400 });
    // Only a process tells the index about itself.
    const forged = await api.call('/processIndex/all/note', { id: 'forged', created: 0, v: 99 });
    expect(forged.ok).toBe(false);
    const names = await api.call<{ id: string }[]>('/processIndex/all/names');
    expect(names.ok && names.value.some((n) => n.id === 'forged')).toBe(false);
  });
});

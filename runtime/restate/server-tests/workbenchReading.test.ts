import { describe, expect, it } from 'vitest';
import type { ProcessReadingView } from '../processObject.ts';
import { ingress, uniquePrefix } from './ingress.ts';

// The handlers the workbench attached to a server reads and steers with (docs/restate.md,
// "The workbench attached to a server"): reading, wakeNow, replaceContext.
const sleeper = (id: string) => ({
  format: 'flow/1',
  id,
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'inc', kind: 'work', set: { count: 'count + 1' } },
    { id: 'sleep', kind: 'continue-after', on: [{ id: 'week', timer: 'P7D' }] },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'inc' },
    { id: 'e2', from: 'inc', to: 'sleep' },
    { id: 'e3', from: 'sleep', to: 'done' },
  ],
});

describe('the workbench’s handlers', () => {
  const api = ingress();
  const read = (id: string, body: unknown) =>
    api.call<ProcessReadingView>(`/process/${id}/reading`, body);

  it('reads a process in one call: record, live context, newest journal, its flows', async () => {
    const p = uniquePrefix('reading');
    expect((await api.deploy(JSON.stringify(sleeper(`${p}flow`)))).ok).toBe(true);
    expect((await api.start(`${p}a`, { flow: `${p}flow`, context: { count: 0 } })).ok).toBe(true);
    const whole = await read(`${p}a`, {});
    if (!whole.ok) throw new Error(whole.error);
    expect(whole.value.record.status).toBe('waiting');
    expect(whole.value.context.value).toEqual({ count: 1 });
    expect(Object.keys(whole.value.flows)).toEqual([`${p}flow`]);
    const journal = await api.journal(`${p}a`);
    if (!journal.ok) throw new Error(journal.error);
    expect(journal.value.length).toBeGreaterThan(2);
    expect(whole.value.journal).toEqual(journal.value);
    expect(whole.value.journalMore).toBe(false);
    // The newest two, oldest of them first, and more left.
    const two = await read(`${p}a`, { journalLimit: 2 });
    if (!two.ok) throw new Error(two.error);
    expect(two.value.journal).toEqual(journal.value.slice(-2));
    expect(two.value.journalMore).toBe(true);
  });

  it('numbers each journal entry by its place (seq), as the workbench finds an entry by it', async () => {
    const p = uniquePrefix('readingSeq');
    expect((await api.deploy(JSON.stringify(sleeper(`${p}flow`)))).ok).toBe(true);
    expect((await api.start(`${p}a`, { flow: `${p}flow`, context: { count: 0 } })).ok).toBe(true);
    const journal = await api.journal(`${p}a`);
    if (!journal.ok) throw new Error(journal.error);
    const seqs = (journal.value as { seq?: number }[]).map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    // A page of the newest keeps their numbers: the last two are the last two places.
    const two = await read(`${p}a`, { journalLimit: 2 });
    if (!two.ok) throw new Error(two.error);
    expect(two.value.journal.map((e) => (e as { seq?: number }).seq)).toEqual([
      seqs.length - 1,
      seqs.length,
    ]);
  });

  it('refuses a journal limit out of bounds and an unknown process, saying which', async () => {
    const p = uniquePrefix('readingBad');
    expect((await api.deploy(JSON.stringify(sleeper(`${p}flow`)))).ok).toBe(true);
    expect((await api.start(`${p}a`, { flow: `${p}flow`, context: { count: 0 } })).ok).toBe(true);
    for (const journalLimit of [0, 100_001, 1.5, 'ten']) {
      const bad = await read(`${p}a`, { journalLimit });
      expect(bad).toMatchObject({ ok: false, status: 400 });
      expect(!bad.ok && bad.error).toContain('journalLimit');
    }
    const none = await read(`${p}none`, {});
    expect(none).toMatchObject({ ok: false, status: 404 });
  });

  it('forks a process from a journal entry, on the context as of then or on the live one, and refuses what cannot be', async () => {
    const p = uniquePrefix('fork');
    expect((await api.deploy(JSON.stringify(sleeper(`${p}flow`)))).ok).toBe(true);
    expect((await api.start(`${p}a`, { flow: `${p}flow`, context: { count: 0 } })).ok).toBe(true);
    const journal = await api.journal(`${p}a`);
    if (!journal.ok) throw new Error(journal.error);
    // The start: the position before `inc` ran, on the context as it was then.
    const startedAt = (journal.value as { seq: number; type: string }[]).find(
      (e) => e.type === 'started',
    )!.seq;
    const fork = (id: string, body: unknown) =>
      api.call<{ status: string }>(`/process/${id}/fork`, body);

    const past = await fork(`${p}past`, { from: `${p}a`, seq: startedAt, context: 'past' });
    expect(past).toMatchObject({ ok: true, value: { status: 'waiting' } });
    const forked = await read(`${p}past`, {});
    const source = await read(`${p}a`, {});
    if (!forked.ok || !source.ok) throw new Error('unread');
    // It ran `inc` again, on a copy of the context of then: its own, at 1; the source's stays 1.
    expect(forked.value.context.value).toEqual({ count: 1 });
    expect(forked.value.record.contextId).not.toBe(source.value.record.contextId);
    expect(forked.value.journal[0]).toMatchObject({
      type: 'started',
      from: { process: `${p}a`, seq: startedAt, context: 'past' },
    });

    const live = await fork(`${p}live`, { from: `${p}a`, seq: startedAt, context: 'live' });
    expect(live.ok).toBe(true);
    const shared = await read(`${p}a`, {});
    expect(shared.ok && shared.value.context.value).toEqual({ count: 2 });

    for (const [id, body, said] of [
      [`${p}b`, { from: `${p}a`, seq: startedAt, context: 'future' }, 'context'],
      [`${p}b`, { from: `${p}none`, seq: 1, context: 'past' }, 'there is no process'],
      [`${p}b`, { from: `${p}a`, seq: 9999, context: 'past' }, 'no journal entry 9999'],
      [`${p}past`, { from: `${p}a`, seq: startedAt, context: 'past' }, 'already exists'],
      [`${p}b`, { from: `${p}a`, seq: 0, context: 'past' }, 'seq'],
    ] as const) {
      const bad = await fork(id, body);
      expect(bad).toMatchObject({ ok: false, status: 400 });
      expect(!bad.ok && bad.error).toContain(said);
    }
    // Nothing was made by a refusal.
    expect(await read(`${p}b`, {})).toMatchObject({ ok: false, status: 404 });
  });

  it('wakes a sleeping process now, and replaces its whole context', async () => {
    const p = uniquePrefix('wakeNow');
    expect((await api.deploy(JSON.stringify(sleeper(`${p}flow`)))).ok).toBe(true);
    expect((await api.start(`${p}a`, { flow: `${p}flow`, context: { count: 0 } })).ok).toBe(true);
    const replaced = await api.call(`/process/${p}a/replaceContext`, { value: { count: 10 } });
    expect(replaced.ok).toBe(true);
    const after = await read(`${p}a`, {});
    expect(after.ok && after.value.context.value).toEqual({ count: 10 });
    const woke = await api.call<{ status: string }>(`/process/${p}a/wakeNow`);
    expect(woke).toMatchObject({ ok: true, value: { status: 'done' } });
    // Done: there is no timer left to fire, and the refusal says why.
    const again = await api.call(`/process/${p}a/wakeNow`);
    expect(again).toMatchObject({ ok: false, status: 400 });
    const bad = await api.call(`/process/${p}a/replaceContext`, { context: {} });
    expect(bad).toMatchObject({ ok: false, status: 400 });
  });
});

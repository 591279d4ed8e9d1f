import { describe, expect, it } from 'vitest';
import { validateCommand } from '../../command/validateCommand.ts';
import { ingress, uniquePrefix, until } from './ingress.ts';

const loopFlow = (id: string) => ({
  format: 'flow/1',
  id,
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'inc', kind: 'work', set: { count: 'count + 1' } },
    {
      id: 'sleep',
      kind: 'continue-after',
      on: [
        { id: 'tick', timer: 'PT1S' },
        { id: 'kick', event: `${id}.kick`, into: 'got' },
      ],
    },
    {
      id: 'ask',
      kind: 'continue-after',
      on: [
        {
          id: 'ok',
          human: { prompt: 'Go?', fields: [{ name: 'go', type: 'boolean' }] },
          into: 'answer',
        },
      ],
    },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'inc' },
    { id: 'e2', from: 'inc', to: 'sleep' },
    { id: 'e3', from: 'sleep', to: 'inc', when: 'count < 3' },
    { id: 'e4', from: 'sleep', to: 'ask', when: 'count >= 3' },
    { id: 'e5', from: 'ask', to: 'done' },
  ],
});

describe('the Restate runtime', () => {
  const api = ingress();

  it('runs a process through an event, its timers and a person, each step once', async () => {
    const p = uniquePrefix('basic');
    expect((await api.deploy(JSON.stringify(loopFlow(`${p}loop`)))).ok).toBe(true);
    const started = await api.start(`${p}a`, { flow: `${p}loop`, context: { count: 0 } });
    expect(started).toMatchObject({ ok: true, value: { status: 'waiting' } });
    // The event index learns of the wait by a one-way message: asked until it has.
    const sent = await until(
      () => api.event(`${p}loop.kick`, { by: 'test' }),
      (a) => a.ok && a.value.delivered === 1,
    );
    expect(sent).toEqual({ ok: true, value: { delivered: 1 } });
    const asking = await until(
      () => api.status(`${p}a`),
      (s) => s.ok && s.value.waits[0]?.node === 'ask',
    );
    expect(asking).toMatchObject({
      ok: true,
      value: {
        status: 'waiting',
        visits: { start: 1, inc: 3, sleep: 3 },
        passes: { inc: 2 },
        context: { count: 3, got: { by: 'test' } },
      },
    });
    expect(await api.human(`${p}a`, { node: 'ask', input: { go: true } })).toMatchObject({
      ok: true,
      value: { status: 'done' },
    });
    const journal = await api.journal(`${p}a`);
    if (!journal.ok) throw new Error(journal.error);
    const ran = (journal.value as { type: string; node?: string; gen?: number[] }[])
      .filter((e) => e.type === 'ran')
      .map((e) => `${e.node}@${JSON.stringify(e.gen)}`);
    // No step ran twice: each node and generation appears once in the journal.
    expect(new Set(ran).size).toBe(ran.length);
    expect(ran).toHaveLength(1 + 3 + 3 + 1 + 1);
    const done = await api.status(`${p}a`);
    expect(done).toMatchObject({ ok: true, value: { status: 'done', contextVersion: 5 } });
  });

  it('refuses a bad file with the messages of flow validate, and stores nothing', async () => {
    const p = uniquePrefix('bad');
    const good = JSON.stringify(loopFlow(`${p}f`));
    expect((await api.deploy(good)).ok).toBe(true);
    const broken = [
      '{"format": "flow/1", "id": ',
      JSON.stringify({ ...loopFlow(`${p}f`), nodes: [{ id: 's', kind: 'wrok' }] }),
      JSON.stringify({ ...loopFlow(`${p}f`), edges: [{ id: 'x', from: 'start', to: 'nowhere' }] }),
      JSON.stringify({ format: 'flows/1', flows: [loopFlow(`${p}f`), loopFlow(`${p}f`)] }),
      '[]',
      '',
    ];
    for (const text of broken) {
      const expected = validateCommand(text);
      expect(expected.code).toBe(1);
      const answer = await api.deploy(text);
      expect(answer).toEqual({
        ok: false,
        status: 400,
        error: [...expected.out, ...expected.err].join('\n'),
      });
    }
    // The flow stored before is the one a process starts on: the refusals changed nothing.
    const started = await api.start(`${p}a`, { flow: `${p}f`, context: { count: 0 } });
    expect(started).toMatchObject({ ok: true, value: { status: 'waiting' } });
    expect((await api.start(`${p}b`, { flow: `${p}never` })).ok).toBe(false);
  });

  it('refuses a huge file with 50,000 bad nodes in the messages of flow validate', async () => {
    const nodes = Array.from({ length: 50_000 }, (_, i) => ({ id: `n${i}`, kind: 'wrok' }));
    const huge = JSON.stringify({ ...loopFlow(uniquePrefix('huge')), nodes });
    const expected = validateCommand(huge);
    expect(expected.err.at(-1)).toBe('and 49980 more problems');
    expect(await api.deploy(huge)).toEqual({
      ok: false,
      status: 400,
      error: [...expected.out, ...expected.err].join('\n'),
    });
  });

  it('refuses bad input to a process with a located message, changing nothing', async () => {
    const p = uniquePrefix('input');
    // No timer: the process must stay where it is while it refuses, however slow the machine.
    const untimed: { nodes: Record<string, unknown>[] } = loopFlow(`${p}f`);
    untimed.nodes[2] = { ...untimed.nodes[2]!, on: [{ id: 'kick', event: `${p}f.kick` }] };
    await api.deploy(JSON.stringify(untimed));
    expect(await api.start(`${p}a`, { flow: 5 } as never)).toEqual({
      ok: false,
      status: 400,
      error: 'flow: expected a string, got number 5',
    });
    expect(await api.start(`${p}a`, { flow: `${p}f`, extra: 1 } as never)).toMatchObject({
      ok: false,
      error: expect.stringContaining('extra'),
    });
    expect(await api.status(`${p}a`)).toMatchObject({
      ok: false,
      error: `there is no process "${p}a"`,
    });
    await api.start(`${p}a`, { flow: `${p}f`, context: { count: 5 } });
    const before = await api.status(`${p}a`);
    const refusals = [
      await api.human(`${p}a`, { node: 'sleep', input: { go: true } }),
      await api.human(`${p}a`, { node: 'nowhere', input: {} }),
      await api.resolve(`${p}a`, 'keep'),
      await api.resolve(`${p}a`, 'sideways' as never),
      await api.control(`${p}a`, 'resume'),
      await api.control(`${p}a`, 'retry'),
      await api.start(`${p}a`, { flow: `${p}f` }),
      await api.setContext(`${p}a`, 'a..b', 1),
      await api.event(`${p}nothing`, 1, `${p}nobody`),
    ];
    // Every refusal is a 400, but for a process that does not exist: 404.
    for (const r of refusals.slice(0, -1)) expect(r).toMatchObject({ ok: false, status: 400 });
    expect(refusals.at(-1)).toMatchObject({ ok: false, status: 404 });
    expect(refusals.map((r) => (r.ok ? '' : r.error))).toEqual([
      `"sleep" has no human trigger`,
      `process "${p}a" is not waiting at "nowhere"`,
      `process "${p}a" is waiting; only a process whose flow changed can be resolved`,
      'choice: expected "continue" or "keep" or "restart" or "cancel", got "sideways"',
      `process "${p}a" is waiting, not stopped`,
      `process "${p}a" is waiting, not failed`,
      `a process "${p}a" already exists`,
      expect.any(String),
      `there is no process "${p}nobody"`,
    ]);
    expect(await api.status(`${p}a`)).toEqual(before);
  });
});

import { describe, expect, inject, it } from 'vitest';
import { flow, ingress, uniquePrefix, until } from './ingress.ts';

/** A flow with one call, answered into `answer`, then done. */
const callFlow = (id: string, call: Record<string, unknown>) => ({
  format: 'flow/1',
  id,
  nodes: [
    { id: 'start', kind: 'start' },
    {
      id: 'ask',
      kind: 'continue-after',
      on: [{ id: 'answered', into: 'answer', call: { timeout: 'PT10S', ...call } }],
    },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'ask' },
    { id: 'e2', from: 'ask', to: 'done', trigger: 'answered' },
  ],
});

/** Rows of Restate's own tables, through its admin API's SQL query endpoint. */
async function query(sql: string): Promise<unknown[]> {
  const response = await fetch(new URL('/query', inject('restate').adminUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: sql }),
  });
  if (!response.ok) throw new Error(`query: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { rows: unknown[] }).rows;
}

describe('calls on Restate (docs/restate.md#calls)', () => {
  const api = ingress();
  const { origin, secret } = inject('calls');

  async function run(id: string, call: Record<string, unknown>) {
    expect((await api.deploy(JSON.stringify(callFlow(`${id}f`, call)))).ok).toBe(true);
    expect((await api.start(id, { flow: `${id}f`, context: {} })).ok).toBe(true);
    const done = await until(
      () => api.status(id),
      (s) => s.ok && s.value.status === 'done',
    );
    if (!done.ok) throw new Error(done.error);
    expect(done.value.status).toBe('done');
    return done.value;
  }

  it('fills a secret from the environment only as it is sent: no journal, state or status holds its value', async () => {
    const id = `${uniquePrefix('secret')}p`;
    const status = await run(id, {
      method: 'GET',
      url: `'${origin}/needs-auth'`,
      headers: { Authorization: "'Bearer ' & $secret('shop')" },
    });
    // The server answered 200 only because it got the value; the answer echoes it, scrubbed.
    expect(status.context).toMatchObject({
      answer: { ok: true, status: 200, body: { authorization: 'Bearer {{secret:shop}}' } },
    });
    const printed = await flow(['status', id, '--ingress', inject('restate').ingressUrl]);
    const journal = await flow(['journal', id, '--ingress', inject('restate').ingressUrl]);
    expect(printed.code).toBe(0);
    expect(journal.out.join('\n')).toMatch(/"type": "call-attempt"/);
    // Restate's own record of the process: its state, and its invocations' journals, each
    // entry's bytes (`raw`, in hex) read as text, where a side effect's result is kept.
    const state = await query(
      `SELECT key, value_utf8 FROM state WHERE service_name = 'process' AND service_key = '${id}'`,
    );
    const journals = (await query(
      `SELECT j.name, j.raw FROM sys_journal j JOIN sys_invocation i ON j.id = i.id WHERE i.target_service_key = '${id}'`,
    )) as { name: string | null; raw: string }[];
    const journalText = journals
      .map((r) => `${r.name ?? ''} ${Buffer.from(r.raw, 'hex').toString('utf8')}`)
      .join('\n');
    expect(state.length).toBeGreaterThan(0);
    // The attempt's result is among the entries read: the search below looks where it is.
    expect(journalText).toContain('call ask attempt 1');
    expect(journalText).toContain('Bearer {{secret:shop}}');
    for (const [where, text] of [
      ['status', printed.out.join('\n')],
      ['journal', journal.out.join('\n')],
      ['state', JSON.stringify(state)],
      ['sys_journal', journalText],
    ] as const)
      expect(text, where).not.toContain(secret);
  });

  it("retries on a Restate timer after the policy's interval, journaling each attempt, until the answer succeeds", async () => {
    const id = `${uniquePrefix('retry')}p`;
    const before = Date.now();
    const status = await run(id, {
      method: 'POST',
      url: `'${origin}/fail-first/1/charge'`,
      retry: { max: 2, interval: 'PT2S', on: [503] },
    });
    expect(status.context).toMatchObject({
      answer: { ok: true, status: 200, body: { id: 'ch_1' }, attempts: 2 },
    });
    expect(status.callProgress).toEqual([]);
    const journal = await api.journal(id);
    if (!journal.ok) throw new Error(journal.error);
    const attempts = journal.value.filter(
      (e): e is { type: string; at: number } => (e as { type: string }).type === 'call-attempt',
    );
    expect(attempts).toMatchObject([
      { node: 'ask', attempt: 1, status: 503 },
      { node: 'ask', attempt: 2, status: 200 },
    ]);
    // The second was sent no sooner than the interval after the first's answer.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(2000);
    expect(attempts[0]!.at).toBeGreaterThanOrEqual(before);
  });

  it('keeps attempts and the next due time in the object, and schedules no attempt while stopped', async () => {
    const id = `${uniquePrefix('stopcall')}p`;
    const f = `${id}f`;
    // A retry an hour away: the test ends long before it, whatever the machine's speed.
    const call = {
      method: 'GET',
      url: `'${origin}/status/503'`,
      retry: { max: 1, interval: 'PT1H', on: [503] },
    };
    expect((await api.deploy(JSON.stringify(callFlow(f, call)))).ok).toBe(true);
    expect((await api.start(id, { flow: f, context: {} })).ok).toBe(true);
    const first = await until(
      () => api.status(id),
      (s) =>
        s.ok && s.value.callProgress[0]?.attempts === 1 && s.value.callProgress[0].next !== null,
    );
    if (!first.ok) throw new Error(first.error);
    const [progress] = first.value.callProgress;
    expect(progress).toMatchObject({ node: 'ask', attempts: 1, last: { status: 503 } });
    const due = Date.parse(progress!.next!);
    // The due time of the scheduled attempt, as the object keeps it (its `meta`, processMeta.ts).
    const scheduled = async () => {
      const rows = (await query(
        `SELECT value_utf8 FROM state WHERE service_name = 'process' AND service_key = '${id}' AND key = 'meta'`,
      )) as { value_utf8: string }[];
      const at = rows[0] && (JSON.parse(rows[0].value_utf8) as { call?: { at: number } }).call?.at;
      return at === undefined ? [] : [at];
    };
    expect(await scheduled()).toEqual([due]);
    expect(await api.rest(id)).toMatchObject({ ok: true, value: { callDue: due } });
    expect((await api.control(id, 'stop')).ok).toBe(true);
    // The delayed call was cancelled with the stop: nothing is scheduled for a stopped process.
    expect(await scheduled()).toEqual([]);
    expect((await api.control(id, 'resume')).ok).toBe(true);
    expect(await scheduled()).toEqual([due]);
    expect((await api.control(id, 'stop')).ok).toBe(true);
  });

  it('sends the next attempt at once when asked (the workbench’s “Send next attempt now”), and refuses bad input', async () => {
    const id = `${uniquePrefix('callnow')}p`;
    const f = `${id}f`;
    // A retry an hour away: only the request sends the second attempt before the test ends.
    const call = {
      method: 'POST',
      url: `'${origin}/fail-first/1/now'`,
      retry: { max: 2, interval: 'PT1H', on: [503] },
    };
    expect((await api.deploy(JSON.stringify(callFlow(f, call)))).ok).toBe(true);
    expect((await api.start(id, { flow: f, context: {} })).ok).toBe(true);
    const first = await until(
      () =>
        api.call<{ calls: { seq: number; attempts: number; due: number | null }[] }>(
          `/process/${id}/reading`,
          {},
        ),
      (r) => r.ok && r.value.calls[0]?.attempts === 1 && r.value.calls[0].due !== null,
    );
    if (!first.ok) throw new Error(first.error);
    const seq = first.value.calls[0]!.seq;
    for (const bad of [{}, { seq: -1 }, { seq: 'one' }, { seq, extra: true }]) {
      const refused = await api.call(`/process/${id}/sendCallNow`, bad);
      expect(refused).toMatchObject({ ok: false, status: 400 });
    }
    expect(await api.call(`/process/${id}/sendCallNow`, { seq: seq + 1000 })).toMatchObject({
      ok: true,
      value: false,
    });
    expect(await api.call(`/process/${id}none/sendCallNow`, { seq })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await api.call(`/process/${id}/sendCallNow`, { seq })).toMatchObject({
      ok: true,
      value: true,
    });
    const status = await api.status(id);
    expect(status.ok && status.value.status).toBe('done');
    expect(status.ok && status.value.context).toMatchObject({
      answer: { ok: true, status: 200, attempts: 2 },
    });
  });

  it('fails an attempt for a secret not in the environment, with the browser’s message', async () => {
    const id = `${uniquePrefix('nosecret')}p`;
    const status = await run(id, {
      method: 'GET',
      url: `'${origin}/needs-auth'`,
      headers: { Authorization: "'Bearer ' & $secret('absent')" },
      retry: { max: 3, interval: 'PT1S', on: ['network'] },
    });
    expect(status.context).toEqual({
      answer: {
        ok: false,
        status: 0,
        headers: {},
        body: null,
        error: 'refused: secret "absent" is not set',
        attempts: 1,
      },
    });
  });

  it('refuses an origin flow serve was not given with --allow-origin, sending nothing', async () => {
    const id = `${uniquePrefix('origin')}p`;
    const status = await run(id, { method: 'GET', url: "'http://127.0.0.2:9/x'" });
    expect(status.context).toMatchObject({
      answer: { ok: false, status: 0, error: 'refused: origin not allowed', attempts: 1 },
    });
  });
});

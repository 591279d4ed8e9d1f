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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edge, end, flow, start, wait } from '../../shared/fixtures/flows.ts';
import type { Call, Flow } from '../../shared/schema.ts';
import { manualTimer } from '../calls/fixtures/attemptSettings.ts';
import { startTestServer, type TestServer } from '../calls/fixtures/testServer.ts';
import { allowOrigins } from '../calls/originAllowlist.ts';
import { secretsFrom } from '../calls/secrets.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import type { CallOptions } from './options.ts';
import { Supervisor } from './supervisor.ts';

/**
 * Issue 25's "bad input", end to end through the supervisor (sendAttempt.test.ts checks each
 * answer alone): a hostile answer or a request that cannot be sent fails the attempt, the
 * journal's call-attempt entry names the node and the cause, `retry` tries again what it lists,
 * the trigger fires once with the failure (docs/format.md#calls: what a failure means is the
 * designer's), and the supervisor goes on: another process completes after.
 */

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
/** A secret's value that must never be seen outside the attempt. */
const HOST = 'not a host';

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

const url = (path: string) => `'${server.origin}${path}'`;
/** Network errors and timeouts are tried again twice, a minute apart. */
const retry = {
  max: 2,
  interval: 'PT1M',
  backoff: 1,
  on: ['network' as const, 'timeout' as const],
};

/** start → pay (the call, into "res") → end. */
function payFlow(id: string, call: Call): Flow {
  return flow({
    id,
    nodes: [start(), wait('pay', [{ id: 'c', call, into: 'res' }]), end()],
    edges: [edge('start', 'pay'), edge('pay', 'end', { trigger: 'c' })],
  });
}

async function setup() {
  const store = await testStore('bad-calls');
  const clock = new VirtualClock(T0);
  // The attempt's timeout on a timer of the test's own: no test waits on real time.
  const timer = manualTimer();
  // The supervisor's own attempt wiring (callLoop.ts), with the test's timer.
  const calls: CallOptions = {
    secrets: secretsFrom({ host: HOST }),
    allow: allowOrigins([server.origin]),
    startTimer: timer.start,
  };
  const supervisor = new Supervisor(store, clock, { calls });
  await store.putFlow(payFlow('good', { url: url('/json') }));
  const context = async (id: string) =>
    (await store.getContext((await supervisor.mustGet(id)).contextId))!.value as Record<
      string,
      unknown
    >;
  /** The supervisor keeps working: a process with a good call completes after. */
  const goodAfter = async (at: number) => {
    await supervisor.start('good', { id: 'after' });
    await supervisor.advanceTo(at);
    expect((await supervisor.mustGet('after')).status).toBe('done');
    expect((await context('after')).res).toMatchObject({ ok: true, status: 200, attempts: 1 });
  };
  return { store, clock, supervisor, timer, context, goodAfter };
}

interface BadCase {
  name: string;
  /** The call, made once the server is up. */
  call: () => Call;
  /** What each attempt's error says. */
  error: RegExp;
  /** The status each attempt had (0: no answer). */
  status: number;
  /** Attempts made: 3 when `retry` lists the failure, else 1 (a refusal, an answer given). */
  attempts: number;
  /** Whether anything reached the server. */
  sent: boolean;
}

const CASES: BadCase[] = [
  {
    name: 'an answer over 1 MB (/huge) fails as "too large", not retried (an answer came)',
    call: () => ({ url: url('/huge'), retry }),
    error: /^too large$/,
    status: 200,
    attempts: 1,
    sent: true,
  },
  {
    name: 'an answer that says JSON and is not (/not-json) fails as malformed, not retried',
    call: () => ({ url: url('/not-json'), retry }),
    error: /^malformed: the answer says application\/json but is not JSON/,
    status: 200,
    attempts: 1,
    sent: true,
  },
  {
    name: 'a dropped connection (/drop) fails as a network error, retried twice',
    call: () => ({ url: url('/drop'), retry }),
    error: /^network: /,
    status: 0,
    attempts: 3,
    sent: true,
  },
  {
    name: 'a URL that is not http(s) once its secret is in is refused unsent, not retried',
    call: () => ({ url: `'http://' & $secret('host') & '/x'`, retry }),
    error: /^refused: "http:\/\/\{\{secret:host\}\}\/x" is not an http\(s\) URL$/,
    status: 0,
    attempts: 1,
    sent: false,
  },
  {
    name: 'a secret that is not set is refused unsent, naming it, not retried',
    call: () => ({
      url: url('/json'),
      headers: { Authorization: `'Bearer ' & $secret('gone')` },
      retry,
    }),
    error: /^refused: secret "gone" is not set$/,
    status: 0,
    attempts: 1,
    sent: false,
  },
];

/** The journal's attempts of the process, as the inspector lists them. */
async function attemptsOf(store: Awaited<ReturnType<typeof testStore>>, id: string) {
  return (await store.journal(id)).filter((e) => e.type === 'call-attempt');
}

describe('bad input to a call, through the supervisor (issue 25; docs/format.md#calls)', () => {
  it.each(CASES)('rule: $name', async (c) => {
    const { store, supervisor, context, goodAfter } = await setup();
    await store.putFlow(payFlow('bad', c.call()));
    const before = server.requests.length;
    await supervisor.start('bad', { id: 'b' });
    await supervisor.advanceTo(T0 + 10 * MINUTE);

    const attempts = await attemptsOf(store, 'b');
    expect(attempts).toHaveLength(c.attempts);
    attempts.forEach((a, i) => {
      expect(a).toMatchObject({ node: 'pay', attempt: i + 1, status: c.status });
      expect(a.error).toMatch(c.error);
      // A minute between attempts: the retry's interval, on the virtual clock.
      expect(a.at).toBe(T0 + i * MINUTE);
    });
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(c.sent ? c.attempts : 0);
    // Every attempt of the wait carries one key.
    expect(new Set(sent.map((r) => r.headers['idempotency-key'])).size).toBeLessThanOrEqual(1);

    // The trigger fired once with the failure, and the process went on along its edge.
    const record = await supervisor.mustGet('b');
    expect(record.status).toBe('done');
    const res = (await context('b')).res as { ok: boolean; error: string; attempts: number };
    expect(res).toMatchObject({ ok: false, status: c.status, attempts: c.attempts });
    expect(res.error).toMatch(c.error);
    expect(await store.listCallProgress('b')).toEqual([]);
    const stored = JSON.stringify([await store.journal('b'), await context('b')]);
    expect(stored).not.toContain(HOST);

    await goodAfter(T0 + 20 * MINUTE);
  });

  it('rule: no answer within the timeout (/slow) fails as "timeout" on the runtime\'s timer, retried twice', async () => {
    const { store, supervisor, timer, context, goodAfter } = await setup();
    await store.putFlow(payFlow('bad', { url: url('/slow'), timeout: 'PT5S', retry }));
    const held = server.slowWaiting();
    await supervisor.start('bad', { id: 's' });
    const advancing = supervisor.advanceTo(T0 + 10 * MINUTE);
    for (let i = 1; i <= 3; i++) {
      await server.slowHeld(held + i);
      expect(timer.started).toHaveLength(i);
      timer.fire();
    }
    await advancing;
    server.releaseSlow();
    expect(timer.started).toEqual([5_000, 5_000, 5_000]);
    const attempts = await attemptsOf(store, 's');
    expect(attempts.map((a) => [a.node, a.attempt, a.status, a.error, a.at - T0])).toEqual([
      ['pay', 1, 0, 'timeout', 0],
      ['pay', 2, 0, 'timeout', MINUTE],
      ['pay', 3, 0, 'timeout', 2 * MINUTE],
    ]);
    expect((await supervisor.mustGet('s')).status).toBe('done');
    expect((await context('s')).res).toMatchObject({ ok: false, error: 'timeout', attempts: 3 });
    await goodAfter(T0 + 20 * MINUTE);
  });

  it('rule: a URL expression that gives a non-http URL fails its node, naming it and the field, nothing sent; mended and retried, the call completes', async () => {
    const { store, supervisor, context, goodAfter } = await setup();
    await store.putFlow(payFlow('bad', { url: 'target', retry }));
    const before = server.requests.length;
    await supervisor.start('bad', { id: 'f', context: { target: 'ftp://files.example/x' } });
    await supervisor.advanceTo(T0 + 10 * MINUTE);
    const record = await supervisor.mustGet('f');
    // Kept, failed at the node, with what failed and why.
    expect(record.status).toBe('failed');
    expect(record.error).toContain('pay');
    expect(record.error).toContain(
      'trigger "c" url: "ftp://files.example/x" is not an http:// or https:// URL',
    );
    expect(server.requests.length).toBe(before);
    expect(await store.listCallProgress('f')).toEqual([]);
    await goodAfter(T0 + 20 * MINUTE);

    // The designer mends the context and retries the node: the call is made and answered.
    await supervisor.setContext('f', 'target', `${server.origin}/json`);
    await supervisor.retry('f');
    await supervisor.advanceTo(T0 + 30 * MINUTE);
    expect((await supervisor.mustGet('f')).status).toBe('done');
    expect((await context('f')).res).toMatchObject({ ok: true, status: 200, attempts: 1 });
  });
});

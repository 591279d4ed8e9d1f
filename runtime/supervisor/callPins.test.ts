import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWait, edge, end, flow, start, subflow } from '../../shared/fixtures/flows.ts';
import type { Pin } from '../../shared/pins.ts';
import type { Call, Flow } from '../../shared/schema.ts';
import { signature } from '../../shared/signature.ts';
import { startTestServer, type TestServer } from '../calls/fixtures/testServer.ts';
import { allowOrigins } from '../calls/originAllowlist.ts';
import { pinsFrom, type PinSource } from '../calls/pinnedAnswer.ts';
import { secretsFrom } from '../calls/secrets.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

const url = (path: string) => `'${server.origin}${path}'`;

function payFlow(call: Call, id = 'pay'): Flow {
  return flow({
    id,
    nodes: [start(), callWait('pay', call), end()],
    edges: [edge('start', 'pay'), edge('pay', 'end', { trigger: 'c' })],
  });
}

const pin = (more: Partial<Pin> = {}): Pin => ({
  flow: 'pay',
  node: 'pay',
  trigger: 'c',
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: { pinned: true, id: 'ch_1' },
  ...more,
});

async function setup(flows: Flow[], pins: PinSource) {
  const store = await testStore('pins');
  for (const f of flows) await store.putFlow(f);
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock, {
    calls: { secrets: secretsFrom({}), allow: allowOrigins([server.origin]), pins },
  });
  const context = async (id: string) =>
    (await store.getContext((await supervisor.mustGet(id)).contextId))!.value as Record<
      string,
      unknown
    >;
  return { store, supervisor, context };
}

describe('a pinned call is answered by its pin (docs/format.md#pinned-answers)', () => {
  it('rule: the pin answers the call, no request reaches the server, and the journal marks the attempt pinned', async () => {
    const before = server.requests.length;
    const { supervisor, context, store } = await setup(
      [payFlow({ url: url('/json') })],
      pinsFrom([pin()]),
    );
    await supervisor.start('pay', { id: 'p' });
    await supervisor.advanceTo(T0);
    expect((await supervisor.mustGet('p')).status).toBe('done');
    expect((await context('p')).res).toEqual({
      ok: true,
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { pinned: true, id: 'ch_1' },
      attempts: 1,
    });
    expect(server.requests.length).toBe(before);
    const attempts = (await store.journal('p')).filter((e) => e.type === 'call-attempt');
    expect(attempts).toMatchObject([{ attempt: 1, status: 200, pinned: true, ms: 0 }]);
  });

  it('rule: a pin of another node, trigger or flow does not answer: the call is sent', async () => {
    const before = server.requests.length;
    const { supervisor, context, store } = await setup(
      [payFlow({ url: url('/json') })],
      pinsFrom([pin({ node: 'other' }), pin({ trigger: 'x' }), pin({ flow: 'elsewhere' })]),
    );
    await supervisor.start('pay', { id: 'q' });
    await supervisor.advanceTo(T0);
    expect((await context('q')).res).toMatchObject({ ok: true, body: { path: '/json' } });
    expect(server.requests.length).toBe(before + 1);
    const attempts = (await store.journal('q')).filter((e) => e.type === 'call-attempt');
    expect(attempts[0]).not.toHaveProperty('pinned');
  });

  it("rule: a pinned failure is a failure as a server's would be: retried as configured, each attempt answered by the pin", async () => {
    const before = server.requests.length;
    const retry = { max: 2, interval: 'PT1M', on: [503] };
    const { supervisor, context } = await setup(
      [payFlow({ url: url('/json'), retry })],
      pinsFrom([pin({ status: 503, body: 'busy', headers: {} })]),
    );
    await supervisor.start('pay', { id: 'f' });
    await supervisor.advanceTo(T0 + 10 * MINUTE);
    expect((await context('f')).res).toMatchObject({ ok: false, status: 503, attempts: 3 });
    expect(server.requests.length).toBe(before);
  });

  it('rule: a call inside a sub-flow is answered by the pin of the flow that holds it', async () => {
    const before = server.requests.length;
    const parent = flow({
      id: 'outer',
      nodes: [start(), subflow('sub', 'pay'), end()],
      edges: [edge('start', 'sub'), edge('sub', 'end')],
    });
    const { supervisor, context } = await setup(
      [parent, payFlow({ url: url('/json') })],
      pinsFrom([pin()]),
    );
    await supervisor.start('outer', { id: 's' });
    await supervisor.advanceTo(T0);
    expect((await supervisor.mustGet('s')).status).toBe('done');
    expect(JSON.stringify(await context('s'))).toContain('ch_1');
    expect(server.requests.length).toBe(before);
  });

  it('rule: a pin set while a process sleeps at the call answers its next attempt, and does not change the signature the process runs on', async () => {
    const before = server.requests.length;
    const pins: Pin[] = [];
    const source: PinSource = { pinFor: (at) => pinsFrom(pins).pinFor(at) };
    const f = payFlow({ url: url('/status/503'), retry: { max: 1, interval: 'PT1M', on: [503] } });
    const { supervisor, context } = await setup([f], source);
    await supervisor.start('pay', { id: 'w' });
    await supervisor.advanceTo(T0);
    expect(server.requests.length).toBe(before + 1);
    pins.push(pin());
    await supervisor.advanceTo(T0 + 2 * MINUTE);
    const record = await supervisor.mustGet('w');
    // Not flow-changed: pins are not part of the flow, so its signature is the one it started on.
    expect(record.status).toBe('done');
    expect(record.snapshot.scope.signature).toBe(signature(f));
    expect((await context('w')).res).toMatchObject({ ok: true, status: 200, attempts: 2 });
    expect(server.requests.length).toBe(before + 1);
  });
});

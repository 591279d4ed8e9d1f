import { describe, expect, it } from 'vitest';
import { callWait, chain, edge, end, flow, start, work } from '../../shared/fixtures/flows.ts';
import type { Call, Flow, Trigger } from '../../shared/schema.ts';
import { fireAt, ranNodes, startFlow, type Driven } from './fixtures/harness.ts';
import { waitsWithTriggers } from './step.ts';

/** start → pay (the call, into "res", and `others`) → ok / failed on res.ok → end. */
const payFlow = (call: Call, others: Trigger[] = []): Flow =>
  flow({
    nodes: [
      start(),
      callWait('pay', call, others),
      work('paid', { done: 'true' }),
      work('unpaid', { done: 'false' }),
      end(),
    ],
    edges: [
      edge('start', 'pay'),
      edge('pay', 'paid', { when: 'res.ok' }),
      edge('pay', 'unpaid', { when: 'res.ok = false' }),
      ...chain('paid', 'end'),
      ...chain('unpaid', 'end'),
    ],
  });

const order = { order: { id: 'A-7', total: 42 } };

const callOf = (d: Driven) => waitsWithTriggers(d.snapshot, d.env.flows)[0]?.call;

describe('docs/format.md#calls: reaching a call records the request in the wait and stops', () => {
  it('evaluates url, headers and body against the live context, with the defaults filled in', async () => {
    const d = await startFlow(
      [
        payFlow({
          method: 'POST',
          url: "'https://shop.example/api/orders/' & order.id & '/charge'",
          headers: { 'X-Total': '$string(order.total)' },
          body: "{ 'amount': order.total }",
        }),
      ],
      order,
    );
    expect(d.status).toBe('waiting');
    expect(d.snapshot.scope.waits[0]!.call).toEqual({
      trigger: 'c',
      method: 'POST',
      url: 'https://shop.example/api/orders/A-7/charge',
      headers: { 'X-Total': '42' },
      body: { amount: 42 },
      timeout: 30_000,
    });
    // The supervisor reads the request from the wait it times and sends.
    expect(callOf(d)?.url).toBe('https://shop.example/api/orders/A-7/charge');
  });

  it('records a GET without a body when the call names neither', async () => {
    const d = await startFlow([payFlow({ url: "'https://a.example/x'" })]);
    expect(callOf(d)).toEqual({
      trigger: 'c',
      method: 'GET',
      url: 'https://a.example/x',
      headers: {},
      timeout: 30_000,
    });
  });

  it('fills in a retry: max 3, PT1S, backoff 2, a cap of PT1H, and 429, 5xx, network, timeout', async () => {
    const d = await startFlow([payFlow({ url: "'https://a.example'", retry: {} })]);
    const retry = callOf(d)!.retry!;
    expect({ ...retry, on: undefined }).toEqual({
      max: 3,
      interval: 1000,
      backoff: 2,
      maxInterval: 3_600_000,
      on: undefined,
    });
    expect(retry.on).toEqual(expect.arrayContaining([429, 500, 503, 599, 'network', 'timeout']));
    expect(retry.on).not.toContain(404);
  });

  it("keeps $secret's place as {{secret:name}}: no value reaches the snapshot", async () => {
    const d = await startFlow([
      payFlow({
        url: "'https://' & $secret('host') & '/pay'",
        headers: { Authorization: "'Bearer ' & $secret('shop')" },
        body: "{ 'key': $secret('shop') }",
      }),
    ]);
    expect(callOf(d)).toMatchObject({
      url: 'https://{{secret:host}}/pay',
      headers: { Authorization: 'Bearer {{secret:shop}}' },
      body: { key: '{{secret:shop}}' },
    });
  });

  it('survives the snapshot written as JSON and read back, and fires from it', async () => {
    const d = await startFlow([payFlow({ url: "'https://a.example'" })]);
    const reread = { ...d, snapshot: JSON.parse(JSON.stringify(d.snapshot)) as Driven['snapshot'] };
    expect(callOf(reread)).toEqual(callOf(d));
    const done = await fireAt(reread, 'pay', 'c', { ok: true, status: 200, attempts: 1 });
    expect(done.status).toBe('done');
  });
});

describe('docs/format.md#calls: the trigger fires once with the outcome, written at into', () => {
  it('takes the edges the outcome chooses: ok', async () => {
    const d = await startFlow([payFlow({ url: "'https://a.example'" })]);
    const outcome = { ok: true, status: 200, headers: {}, body: { id: 1 }, attempts: 1 };
    const after = await fireAt(d, 'pay', 'c', outcome);
    expect(after.context).toEqual({ res: outcome, done: true });
    expect(ranNodes(after.journal)).toContain('paid');
  });

  it('takes the edges the outcome chooses: a failure without an answer', async () => {
    const d = await startFlow([payFlow({ url: "'https://a.example'" })]);
    const outcome = { ok: false, status: 0, headers: {}, attempts: 4, error: 'timeout' };
    const after = await fireAt(d, 'pay', 'c', outcome);
    expect(after.context).toEqual({ res: outcome, done: false });
  });

  it('drops the call when a timer beside it fires first', async () => {
    const d = await startFlow([
      payFlow({ url: "'https://a.example'" }, [{ id: 'late', timer: 'PT2M' }]),
    ]);
    const after = await fireAt(d, 'pay', 'late');
    expect(after.snapshot.scope.waits).toEqual([]);
    expect(after.context).toEqual({});
  });
});

describe('docs/format.md#calls: a request that cannot be made fails the node, naming the trigger and field', () => {
  const failure = async (call: Call, context: unknown = order) => {
    const d = await startFlow([payFlow(call)], context);
    expect(d.status).toBe('failed');
    expect(d.snapshot.failed!.path).toBe('pay');
    // A failed node makes no wait and writes nothing.
    expect(d.snapshot.scope.waits).toEqual([]);
    expect(d.context).toEqual(context);
    return d.snapshot.failed!.message;
  };

  it('a url that is not text', async () => {
    expect(await failure({ url: 'order.total' })).toBe(
      'trigger "c" url: gives number, not a URL as text',
    );
  });

  it('a url that is not http(s)', async () => {
    expect(await failure({ url: "'file:///etc/passwd'" })).toBe(
      'trigger "c" url: "file:///etc/passwd" is not an http:// or https:// URL',
    );
    expect(await failure({ url: "'https://exa mple.com/'" })).toContain('is not an http://');
  });

  it('a header that is not text, or holds a line break', async () => {
    expect(await failure({ url: "'https://a.example'", headers: { 'X-N': 'order.total' } })).toBe(
      'trigger "c" header "X-N": gives number, not text',
    );
    expect(
      await failure({ url: "'https://a.example'", headers: { 'X-N': '"a\\r\\nX-Evil: 1"' } }),
    ).toBe('trigger "c" header "X-N": holds a line break, which no header may');
  });

  it('a body that cannot be sent', async () => {
    expect(await failure({ url: "'https://a.example'", body: 'function($x) { $x }' })).toBe(
      'trigger "c" body: cannot be sent: it yields a function, which a context cannot hold',
    );
  });

  it('an expression that fails', async () => {
    expect(await failure({ url: "$error('no url')" })).toMatch(/^trigger "c" url: .*no url/);
  });

  it('$secret in a set expression is no function there (validation refuses it first)', async () => {
    const f = flow({
      nodes: [start(), work('leak', { token: "$secret('shop')" }), end()],
      edges: chain('start', 'leak', 'end'),
    });
    const d = await startFlow([f]);
    expect(d.status).toBe('failed');
    expect(d.context).toEqual({});
  });
});

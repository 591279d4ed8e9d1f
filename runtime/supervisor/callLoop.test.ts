import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callWait,
  edge,
  end,
  fanout,
  flow,
  start,
  wait,
  work,
} from '../../shared/fixtures/flows.ts';
import type { Call, Flow, Trigger } from '../../shared/schema.ts';
import { manualTimer } from '../calls/fixtures/attemptSettings.ts';
import { startTestServer, type TestServer } from '../calls/fixtures/testServer.ts';
import { allowOrigins } from '../calls/originAllowlist.ts';
import { secretsFrom } from '../calls/secrets.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { IdbStore } from '../store/idbStore.ts';
import { VirtualClock } from './clock.ts';
import type { CallOptions } from './options.ts';
import type { Store } from './store.ts';
import { Supervisor } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

const url = (path: string) => `'${server.origin}${path}'`;

/** start → pay (the call into "res", and `others`) → end. */
function payFlow(call: Call, others: Trigger[] = []): Flow {
  return flow({
    id: 'pay',
    nodes: [start(), callWait('pay', call, others), end()],
    edges: [edge('start', 'pay'), edge('pay', 'end', { trigger: 'c' })],
  });
}

const allowed = (more: Partial<CallOptions> = {}): CallOptions => ({
  secrets: secretsFrom({}),
  allow: allowOrigins([server.origin]),
  ...more,
});

async function setup(f: Flow, calls: CallOptions | null = allowed(), store?: Store) {
  const s = store ?? (await testStore('calls'));
  await s.putFlow(f);
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(s, clock, calls ? { calls } : {});
  const context = async (id: string) =>
    (await s.getContext((await supervisor.mustGet(id)).contextId))!.value as Record<
      string,
      unknown
    >;
  return { store: s, clock, supervisor, context };
}

const keyOf = (id: string, seq: number, node = 'pay') => `wakeflow-${id}-${seq}-${node}-g`;
const waitSeq = async (supervisor: Supervisor, id: string) =>
  (await supervisor.mustGet(id)).snapshot.scope.waits[0]!.seq;

describe('the supervisor sends calls (docs/format.md#calls)', () => {
  it('rule: a 200 fires the trigger with the outcome at into, and the process goes on to done', async () => {
    const { supervisor, context, store } = await setup(payFlow({ url: url('/json') }));
    await supervisor.start('pay', { id: 'p' });
    expect((await supervisor.mustGet('p')).status).toBe('waiting');
    expect(await supervisor.nextDue()).toBe(T0);
    await supervisor.advanceTo(T0);
    expect((await supervisor.mustGet('p')).status).toBe('done');
    expect((await context('p')).res).toMatchObject({
      ok: true,
      status: 200,
      body: { ok: true, path: '/json' },
      attempts: 1,
    });
    expect(await store.listCallProgress('p')).toEqual([]);
    const attempts = (await store.journal('p')).filter((e) => e.type === 'call-attempt');
    expect(attempts).toMatchObject([
      { type: 'call-attempt', node: 'pay', attempt: 1, method: 'GET', status: 200, at: T0 },
    ]);
  });

  /** A store that lists its writes of processes and of call progress. */
  async function countedWrites(name: string) {
    const base = await testStore(name);
    const writes: string[] = [];
    const written = ['putProcess', 'commitStep', 'putCallProgress', 'deleteCallProgress'];
    const counted = new Proxy(base, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof prop === 'string' && written.includes(prop) && typeof value === 'function')
          return (...args: unknown[]) => {
            writes.push(prop);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        return value;
      },
    });
    return { counted, writes };
  }

  it("rule: the last attempt's journal entry is written in the fire's commit, just before the wake it makes, and the process is written by no other write", async () => {
    const { counted, writes } = await countedWrites('calls-commit');
    const { supervisor, store } = await setup(payFlow({ url: url('/json') }), allowed(), counted);
    await supervisor.start('pay', { id: 'j' });
    writes.length = 0;
    await supervisor.advanceTo(T0);
    expect((await supervisor.mustGet('j')).status).toBe('done');
    // One commit: the attempt's entry, the fire and the steps after it; no write of its own,
    // nor of the call's progress, which is stored only for an attempt that ends in a retry.
    expect(writes).toEqual(['commitStep']);
    const types = (await store.journal('j')).map((e) => e.type);
    const at = types.indexOf('call-attempt');
    expect(types.filter((t) => t === 'call-attempt')).toHaveLength(1);
    expect(types[at + 1]).toBe('woke');
  });

  it('rule: a call answered at once, after which the process sleeps at a timer, writes nothing but the commits that fire it', async () => {
    const { counted, writes } = await countedWrites('calls-then-timer');
    const f = flow({
      id: 'pay',
      nodes: [
        start(),
        callWait('pay', { url: url('/json') }),
        wait('nap', [{ id: 't', timer: 'PT1H' }]),
        end(),
      ],
      edges: [
        edge('start', 'pay'),
        edge('pay', 'nap', { trigger: 'c' }),
        edge('nap', 'end', { trigger: 't' }),
      ],
    });
    const { supervisor, store } = await setup(f, allowed(), counted);
    for (const id of ['n1', 'n2', 'n3']) await supervisor.start('pay', { id });
    writes.length = 0;
    await supervisor.advanceTo(T0);
    for (const id of ['n1', 'n2', 'n3']) {
      expect((await supervisor.mustGet(id)).due).toBe(T0 + 60 * MINUTE);
      expect(await store.listCallProgress(id)).toEqual([]);
    }
    // Each fire's commit, and nothing else: no progress put, nor deleted once the wait is gone.
    expect(writes).toEqual(['commitStep', 'commitStep', 'commitStep']);
  });

  it("rule: a chain of calls, each answer's fire bringing the process to the next, reads the store for the first attempt only", async () => {
    const base = await testStore('calls-chain');
    const reads: string[] = [];
    const counted = new Proxy(base, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if ((prop === 'getProcess' || prop === 'listCallProgress') && typeof value === 'function')
          return (...args: unknown[]) => {
            reads.push(prop);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        return value;
      },
    });
    const f = flow({
      id: 'chain',
      nodes: [
        start(),
        work('tick', { n: '$exists(n) ? n + 1 : 1' }),
        callWait('pay', { url: url('/json') }),
        end(),
      ],
      edges: [
        edge('start', 'tick'),
        edge('tick', 'pay'),
        edge('pay', 'tick', { trigger: 'c', when: 'n < 4' }),
        edge('pay', 'end', { trigger: 'c', when: 'n >= 4' }),
      ],
    });
    const { supervisor, context } = await setup(f, allowed(), counted);
    await supervisor.start('chain', { id: 'ch' });
    reads.length = 0;
    await supervisor.advanceTo(T0);
    // Under the process's call lock, the first wait is read (it was made before the lock was
    // had); each next one was made by a fire under that lock, and goes without a read.
    expect(reads).toEqual(['listCallProgress', 'getProcess']);
    expect((await supervisor.mustGet('ch')).status).toBe('done');
    expect((await context('ch')).n).toBe(4);
  });

  it('rule: a fire commits on the context read with its process: 100 answers at once read no context apart', async () => {
    const base = await testStore('calls-guesses');
    let contextReads = 0;
    const counted = new Proxy(base, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (prop === 'getContext' && typeof value === 'function')
          return (...args: unknown[]) => {
            contextReads++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        return value;
      },
    });
    const { supervisor } = await setup(
      payFlow({ url: url('/json') }),
      allowed({ perOrigin: 100 }),
      counted,
    );
    const ids = Array.from({ length: 100 }, (_, i) => `f${i}`);
    for (const id of ids) await supervisor.start('pay', { id });
    contextReads = 0;
    await supervisor.advanceTo(T0);
    for (const id of ids) expect((await supervisor.mustGet(id)).status).toBe('done');
    // More answers than the supervisor keeps guesses of (32): each fire's commit still guesses
    // right, with the context its load read.
    expect(contextReads).toBe(0);
  });

  it('rule: 503, 503, 200 with retry: three attempts at the retry times on the virtual clock, one Idempotency-Key', async () => {
    server.answerSequence = [503, 503, 200];
    const retry = { max: 3, interval: 'PT1M', backoff: 2, on: [503] };
    const { supervisor, context, store } = await setup(payFlow({ url: url('/sequence'), retry }));
    await supervisor.start('pay', { id: 'r' });
    const seq = await waitSeq(supervisor, 'r');
    await supervisor.advanceTo(T0 + 10 * MINUTE);
    expect((await context('r')).res).toMatchObject({ ok: true, status: 200, attempts: 3 });
    expect(server.countByKey(keyOf('r', seq))).toBe(3);
    const times = (await store.journal('r')).filter((e) => e.type === 'call-attempt');
    // The first at once, the next a minute later, the third two minutes after that.
    expect(times.map((e) => [e.at - T0, 'status' in e && e.status])).toEqual([
      [0, 503],
      [MINUTE, 503],
      [3 * MINUTE, 200],
    ]);
    // Each names its wait by number, kept apart from the entry's own place in the journal.
    expect(times.map((e) => e.type === 'call-attempt' && e.wait)).toEqual([seq, seq, seq]);
    expect((await store.journal('r')).find((e) => e.type === 'done')?.at).toBe(T0 + 3 * MINUTE);
  });

  it('rule: a 400 is not retried: the outcome says ok false with the status', async () => {
    const retry = { max: 3, interval: 'PT1M', on: [503] };
    const { supervisor, context } = await setup(payFlow({ url: url('/status/400'), retry }));
    await supervisor.start('pay', { id: 'b' });
    await supervisor.advanceTo(T0 + 10 * MINUTE);
    expect((await context('b')).res).toMatchObject({ ok: false, status: 400, attempts: 1 });
  });

  it('rule: an attempt with no answer within its timeout fails with "timeout"', async () => {
    const timer = manualTimer();
    const options = allowed({ startTimer: timer.start });
    const { supervisor, context } = await setup(
      payFlow({ url: url('/slow'), timeout: 'PT5S' }),
      options,
    );
    await supervisor.start('pay', { id: 't' });
    const advancing = supervisor.advanceTo(T0);
    await server.slowHeld(1);
    expect(timer.started).toEqual([5_000]);
    timer.fire();
    await advancing;
    expect((await context('t')).res).toMatchObject({ ok: false, status: 0, error: 'timeout' });
    server.releaseSlow();
  });

  it('rule: with no calls option, nothing is sent: the outcome says "refused: origin not allowed"', async () => {
    const before = server.requests.length;
    const { supervisor, context } = await setup(payFlow({ url: url('/json') }), null);
    await supervisor.start('pay', { id: 'n' });
    await supervisor.advanceTo(T0);
    expect((await context('n')).res).toMatchObject({
      ok: false,
      status: 0,
      error: 'refused: origin not allowed',
    });
    expect(server.requests.length).toBe(before);
  });

  it('rule: an origin not on the allowlist is refused, nothing sent', async () => {
    const before = server.requests.length;
    const options = allowed({ allow: allowOrigins(['https://shop.example']) });
    const { supervisor, context } = await setup(payFlow({ url: url('/json') }), options);
    await supervisor.start('pay', { id: 'o' });
    await supervisor.advanceTo(T0);
    expect((await context('o')).res).toMatchObject({ error: 'refused: origin not allowed' });
    expect(server.requests.length).toBe(before);
  });

  it('rule: a deadline timer beside the call fires first: the progress is gone and the late answer dropped', async () => {
    // An answer that has not come (an attempt left pending) does not hold the clock back.
    const { supervisor, context, store } = await setup(
      payFlow({ url: url('/json') }, [{ id: 'late', timer: 'PT2M' }]),
      allowed({ attempt: async () => 'pending' }),
    );
    await supervisor.start('pay', { id: 'd' });
    const seq = await waitSeq(supervisor, 'd');
    await supervisor.advanceTo(T0 + MINUTE);
    // The first attempt is in flight: counted by the sender, nothing stored until one ends.
    expect(await supervisor.callProgress('d')).toEqual([{ seq, attempts: 1, due: null }]);
    expect(await store.listCallProgress('d')).toEqual([]);
    await supervisor.advanceTo(T0 + 3 * MINUTE);
    expect((await supervisor.mustGet('d')).status).toBe('done');
    expect(await supervisor.callProgress('d')).toEqual([]);
    expect(await store.listCallProgress('d')).toEqual([]);
    const outcome = { ok: true, status: 200, headers: {}, body: null };
    expect(await supervisor.respondCall('d', seq, { result: { outcome, sent: true } })).toBe(false);
    await supervisor.idle();
    expect((await context('d')).res).toBeUndefined();
    expect((await store.journal('d')).filter((e) => e.type === 'done')).toHaveLength(1);
  });
});

describe('calls at once are bounded per origin', () => {
  it('rule: a fan-out of 5 calls in one process and 3 processes, perOrigin 2: never more than 2 open at the server', async () => {
    const branches = ['a', 'b', 'c', 'd', 'e'];
    const f = flow({
      id: 'fan',
      nodes: [
        start(),
        fanout('split'),
        ...branches.map((b) => callWait(b, { url: url(`/slow`) })),
        end(),
      ],
      edges: [
        edge('start', 'split'),
        ...branches.map((b) => edge('split', b)),
        ...branches.map((b) => edge(b, 'end', { trigger: 'c' })),
      ],
    });
    const fresh = await startTestServer();
    const local = allowed({ allow: allowOrigins([fresh.origin]), perOrigin: 2 });
    const g = JSON.parse(JSON.stringify(f).replaceAll(server.origin, fresh.origin)) as Flow;
    const { supervisor, store } = await setup(g, local);
    for (const id of ['m1', 'm2', 'm3']) await supervisor.start('fan', { id });
    const advancing = supervisor.advanceTo(T0);
    let answered = 0;
    while (answered < 15) {
      await fresh.slowHeld(Math.min(2, 15 - answered));
      answered += fresh.slowWaiting();
      fresh.releaseSlow();
    }
    await advancing;
    expect(fresh.maxOpen()).toBe(2);
    expect(fresh.requests).toHaveLength(15);
    for (const id of ['m1', 'm2', 'm3']) {
      expect((await supervisor.mustGet(id)).status).toBe('done');
      expect(await store.listCallProgress(id)).toEqual([]);
    }
    await fresh.close();
  });
});

describe('stop, resume and cancel of a process at a call', () => {
  it('rule: a stop abandons the attempt in flight; resume sends it again with the same key and the process completes once', async () => {
    const { supervisor, context, store } = await setup(payFlow({ url: url('/slow') }));
    await supervisor.start('pay', { id: 's' });
    const seq = await waitSeq(supervisor, 's');
    await supervisor.wakeDue();
    await server.slowHeld(1);
    await supervisor.stop('s');
    // The abandoned attempt's answer is dropped.
    server.releaseSlow();
    await supervisor.idle();
    expect((await context('s')).res).toBeUndefined();
    // The progress is kept: attempt 1, not ended (so nothing of it is stored).
    expect(await supervisor.callProgress('s')).toEqual([{ seq, attempts: 1, due: null }]);
    expect(await store.listCallProgress('s')).toEqual([]);
    await supervisor.resume('s');
    const advancing = supervisor.advanceTo(T0);
    await server.slowHeld(1);
    server.releaseSlow();
    await advancing;
    expect(server.countByKey(keyOf('s', seq))).toBe(2);
    expect((await context('s')).res).toMatchObject({ ok: true, attempts: 1 });
    expect((await supervisor.mustGet('s')).status).toBe('done');
    expect((await store.journal('s')).filter((e) => e.type === 'done')).toHaveLength(1);
  });

  it('rule: cancel drops the progress, and the answer of the attempt in flight is dropped', async () => {
    const f = payFlow({ url: url('/slow') });
    const { supervisor, context, store } = await setup(f);
    await supervisor.start('pay', { id: 'x' });
    await supervisor.wakeDue();
    await server.slowHeld(1);
    // A flow change, then the designer's cancel.
    await store.putFlow({ ...f, nodes: [...f.nodes, end('other')] });
    await supervisor.stop('x');
    await supervisor.resume('x');
    expect((await supervisor.mustGet('x')).status).toBe('flow-changed');
    await supervisor.resolve('x', 'cancel');
    expect(await store.listCallProgress('x')).toEqual([]);
    server.releaseSlow();
    await supervisor.idle();
    expect((await context('x')).res).toBeUndefined();
    expect((await supervisor.mustGet('x')).status).toBe('cancelled');
  });

  it("rule: restart's new run makes a new wait, whose call has a new Idempotency-Key and a first attempt of its own", async () => {
    const f = payFlow({ url: url('/slow') });
    const { supervisor, context, store } = await setup(f);
    await supervisor.start('pay', { id: 'n' });
    const oldKey = keyOf('n', await waitSeq(supervisor, 'n'));
    await supervisor.wakeDue();
    await server.slowHeld(1);
    expect(server.countByKey(oldKey)).toBe(1);
    await store.putFlow({ ...f, nodes: [...f.nodes, end('other')] });
    await supervisor.stop('n');
    await supervisor.resume('n');
    expect((await supervisor.mustGet('n')).status).toBe('flow-changed');
    await supervisor.resolve('n', 'restart');
    const newKey = keyOf('n', await waitSeq(supervisor, 'n'));
    expect(newKey).not.toBe(oldKey);
    // The old run's answer comes, and is dropped; the new run's attempt is sent under its key.
    server.releaseSlow();
    const advancing = supervisor.advanceTo(T0);
    await server.slowHeld(1);
    server.releaseSlow();
    await advancing;
    expect(server.countByKey(oldKey)).toBe(1);
    expect(server.countByKey(newKey)).toBe(1);
    expect((await context('n')).res).toMatchObject({ ok: true, attempts: 1 });
    expect((await supervisor.mustGet('n')).status).toBe('done');
  });
});

describe('the inspector and a scenario reach the call loop', () => {
  it('rule: callProgress shows each wait, and sendCallNow makes a retry due now', async () => {
    server.answerSequence = [503, 200];
    const retry = { max: 2, interval: 'PT1H', on: [503] };
    const { supervisor, context, clock } = await setup(payFlow({ url: url('/sequence'), retry }));
    await supervisor.start('pay', { id: 'i' });
    const seq = await waitSeq(supervisor, 'i');
    await supervisor.advanceTo(T0);
    expect(await supervisor.callProgress('i')).toEqual([
      { seq, attempts: 1, due: T0 + 60 * MINUTE, last: { status: 503 } },
    ]);
    expect(await supervisor.nextDue()).toBe(T0 + 60 * MINUTE);
    expect(await supervisor.sendCallNow('i', seq)).toBe(true);
    await supervisor.idle();
    expect(clock.now()).toBe(T0);
    expect((await context('i')).res).toMatchObject({ ok: true, attempts: 2 });
    expect(await supervisor.sendCallNow('i', seq)).toBe(false);
  });

  it('rule: respondCall answers an attempt an attempt override left pending', async () => {
    const { supervisor, context } = await setup(
      payFlow({ url: url('/json') }),
      allowed({ attempt: async () => 'pending' }),
    );
    await supervisor.start('pay', { id: 'q' });
    const seq = await waitSeq(supervisor, 'q');
    await supervisor.advanceTo(T0 + MINUTE);
    expect((await supervisor.mustGet('q')).status).toBe('waiting');
    const outcome = { ok: true, status: 201, headers: {}, body: { id: 9 } };
    expect(await supervisor.respondCall('q', seq, { result: { outcome, sent: true } })).toBe(true);
    await supervisor.idle();
    expect((await context('q')).res).toMatchObject({ status: 201, body: { id: 9 }, attempts: 1 });
  });
});

describe('a restart between sending and saving', () => {
  it('rule: a new supervisor over the same database sends again with the same key, and the process completes once', async () => {
    const name = `calls-restart-${Date.now()}`;
    const first = await IdbStore.open(name);
    const { supervisor } = await setup(payFlow({ url: url('/slow') }), allowed(), first);
    await supervisor.start('pay', { id: 'c' });
    const seq = await waitSeq(supervisor, 'c');
    void supervisor.wakeDue();
    await server.slowHeld(1);
    // The tab is gone: its connection closes with the request in flight, unanswered.
    first.close();
    const before = server.countByKey(keyOf('c', seq));
    expect(before).toBe(1);
    server.releaseSlow();
    await supervisor.idle().catch(() => undefined);

    const reopened = await IdbStore.open(name);
    const clock = new VirtualClock(T0);
    const again = new Supervisor(reopened, clock, { calls: allowed() });
    expect(await again.nextDue()).toBe(T0);
    const advancing = again.advanceTo(T0);
    await server.slowHeld(1);
    server.releaseSlow();
    await advancing;
    expect(server.countByKey(keyOf('c', seq))).toBe(2);
    const record = (await reopened.getProcess('c'))!;
    expect(record.status).toBe('done');
    expect((await reopened.journal('c')).filter((e) => e.type === 'done')).toHaveLength(1);
    expect(await reopened.listCallProgress('c')).toEqual([]);
    reopened.close();
  });
});

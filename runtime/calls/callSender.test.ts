import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../supervisor/clock.ts';
import { holdLock, InProcessLocks } from '../supervisor/locks.ts';
import { CallSender, type CallSenderDeps, type CallWait } from './callSender.ts';
import { CallHost, MemoryProgress } from './fixtures/callHost.ts';
import { attemptSettings, recordedCall } from './fixtures/attemptSettings.ts';
import { startTestServer, type TestServer } from './fixtures/testServer.ts';
import { idempotencyKey } from './idempotencyKey.ts';
import { OriginLimiter } from './originLimiter.ts';
import type { CallProgress } from './callProgress.ts';
import type { RecordedCall } from './recordedCall.ts';
import { sendAttempt } from './sendAttempt.ts';

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());
beforeEach(() => void server.requests.splice(0));

const T0 = Date.parse('2026-01-01T00:00:00Z');
const retry = {
  max: 3,
  interval: 1000,
  backoff: 2,
  maxInterval: 3_600_000,
  on: [500, 'network' as const, 'timeout' as const],
};

function setup(more: Partial<CallSenderDeps> = {}) {
  const clock = new VirtualClock(T0);
  const host = new CallHost();
  const store = new MemoryProgress();
  const limiter = new OriginLimiter();
  const journal: unknown[] = [];
  const deps: CallSenderDeps = {
    now: () => clock.now(),
    store,
    attempt: async (call, key, signal) => ({
      result: await sendAttempt(call, attemptSettings(server.origin, { key, signal, limiter })),
    }),
    // The journal of retried attempts, and the last attempt's entry, which the fire records.
    journal: async (_id, entry) => void journal.push(entry),
    fire: (id, wait, outcome, entry) => (journal.push(entry), host.fire(id, wait, outcome)),
    ...more,
  };
  return { clock, host, store, deps, journal, sender: new CallSender(deps) };
}

const wait = (seq: number, call: RecordedCall, node = 'pay'): CallWait => ({
  seq,
  node,
  gen: [],
  call,
});

describe('the call sender (docs/format.md#calls)', () => {
  it('retries on the clock with the same Idempotency-Key, then fires once with the outcome', async () => {
    const { clock, host, sender, journal } = setup();
    server.answerSequence = [500, 500, 200];
    const w = wait(3, recordedCall(server.origin + '/sequence', { retry }));
    host.waits.set('p1', [w]);
    await sender.sync('p1', [w], true);
    expect(sender.nextDue()).toBe(T0);
    await sender.sendDue();
    expect(sender.progressOf('p1')).toEqual([
      { seq: 3, attempts: 1, due: T0 + 1000, last: { status: 500 } },
    ]);
    // Nothing is sent before the wait between attempts is over on the clock.
    await sender.sendDue();
    expect(server.requests).toHaveLength(1);
    clock.set(sender.nextDue()!);
    await sender.sendDue();
    expect(sender.nextDue()).toBe(T0 + 1000 + 2000);
    clock.set(sender.nextDue()!);
    await sender.sendDue();
    expect(host.fired).toEqual([
      {
        processId: 'p1',
        seq: 3,
        outcome: expect.objectContaining({ ok: true, status: 200, attempts: 3 }),
      },
    ]);
    expect(server.countByKey(idempotencyKey('p1', w))).toBe(3);
    expect(sender.progressOf('p1')).toEqual([]);
    expect(journal).toMatchObject([
      { attempt: 1, status: 500 },
      { attempt: 2, status: 500 },
      { attempt: 3, status: 200 },
    ]);
  });

  it('has several calls of one process and of many processes in flight at once', async () => {
    const { host, sender } = setup();
    const slow = recordedCall(server.origin + '/slow');
    for (const id of ['p1', 'p2']) {
      const waits = [wait(1, slow, 'a'), wait(2, slow, 'b')];
      host.waits.set(id, waits);
      await sender.sync(id, waits, true);
    }
    const sending = sender.sendDue();
    await server.slowHeld(4);
    server.releaseSlow();
    await sending;
    expect(host.fired.map((f) => `${f.processId}/${f.seq}`).sort()).toEqual([
      'p1/1',
      'p1/2',
      'p2/1',
      'p2/2',
    ]);
    expect(new Set(server.requests.map((r) => r.headers['idempotency-key'])).size).toBe(4);
  });

  it('drops the answer of an attempt whose wait is gone (cancel, another trigger first)', async () => {
    const { host, sender, store } = setup();
    const w = wait(1, recordedCall(server.origin + '/slow'));
    await sender.sync('p1', [w], true);
    const sending = sender.sendDue();
    await server.slowHeld(1);
    await sender.sync('p1', [], true);
    server.releaseSlow();
    await sending;
    expect(host.fired).toEqual([]);
    expect(store.rows.size).toBe(0);
  });

  it('abandons an attempt in flight when its process stops, and re-sends it, same key, on resume', async () => {
    const { host, sender } = setup();
    const w = wait(1, recordedCall(server.origin + '/slow'));
    host.waits.set('p1', [w]);
    await sender.sync('p1', [w], true);
    const sending = sender.sendDue();
    await server.slowHeld(1);
    await sender.sync('p1', [w], false);
    await sending;
    expect(sender.nextDue()).toBeNull();
    server.releaseSlow();
    await sender.sync('p1', [w], true);
    const again = sender.sendDue();
    await server.slowHeld(1);
    server.releaseSlow();
    await again;
    expect(host.fired).toMatchObject([{ outcome: { ok: true, attempts: 1 } }]);
    expect(server.countByKey(idempotencyKey('p1', w))).toBe(2);
  });

  it('answers from a scenario: later on the clock, or when respond gives the answer', async () => {
    let pending = true;
    const { clock, host, sender } = setup({
      attempt: async () =>
        pending
          ? 'pending'
          : {
              result: { outcome: { ok: true, status: 200, headers: {}, body: 1 }, sent: true },
              after: 2000,
            },
    });
    const w = wait(1, recordedCall('https://shop.example/x'));
    host.waits.set('p1', [w]);
    await sender.sync('p1', [w], true);
    await sender.sendDue();
    expect(sender.progressOf('p1')).toEqual([{ seq: 1, attempts: 1, due: null }]);
    expect(sender.nextDue()).toBeNull();
    const answer = {
      result: {
        outcome: { ok: false, status: 503, headers: {}, body: null },
        failure: 503,
        sent: true,
      },
    };
    expect(await sender.respond('p1', 1, answer)).toBe(true);
    expect(await sender.respond('p1', 1, answer)).toBe(false);
    expect(host.fired).toMatchObject([{ outcome: { ok: false, status: 503, attempts: 1 } }]);

    pending = false;
    const w2 = wait(2, recordedCall('https://shop.example/x'));
    host.waits.set('p1', [w2]);
    await sender.sync('p1', [w2], true);
    await sender.sendDue();
    expect(sender.nextDue()).toBe(T0 + 2000);
    clock.set(T0 + 2000);
    await sender.sendDue();
    expect(host.fired[1]).toMatchObject({ seq: 2, outcome: { ok: true, body: 1, attempts: 1 } });
  });
});

describe('what the sender stores, and when (docs/decisions.md, calls)', () => {
  /** The store's writes, counted: each is a transaction of its own in the browser. */
  function counted(store: MemoryProgress) {
    const writes: string[] = [];
    return {
      writes,
      store: {
        listCallProgress: (id: string) => store.listCallProgress(id),
        putCallProgress: async (id: string, p: CallProgress) => {
          writes.push(`put ${id}/${p.seq} ${p.attempts}`);
          await store.putCallProgress(id, p);
        },
        deleteCallProgress: async (id: string, seq: number) => {
          writes.push(`delete ${id}/${seq}`);
          await store.deleteCallProgress(id, seq);
        },
      },
    };
  }

  it('rule: nothing is written before an attempt; a first attempt that ends the call writes no progress at all', async () => {
    const base = setup();
    const { writes, store } = counted(base.store);
    const sender = new CallSender({ ...base.deps, store });
    const w = wait(1, recordedCall(server.origin + '/json'));
    base.host.waits.set('p1', [w]);
    await sender.sync('p1', [w], true);
    expect(sender.progressOf('p1')).toEqual([{ seq: 1, attempts: 0, due: T0 }]);
    await sender.sendDue();
    expect(base.host.fired).toMatchObject([{ outcome: { ok: true, attempts: 1 } }]);
    expect(writes).toEqual([]);
    expect(base.store.rows.size).toBe(0);
  });

  it('rule: only an attempt that ends without the outcome is stored (the retry due), and its row goes with the wait', async () => {
    const base = setup();
    const { writes, store } = counted(base.store);
    const sender = new CallSender({ ...base.deps, store });
    server.answerSequence = [500, 200];
    const w = wait(1, recordedCall(server.origin + '/sequence', { retry }));
    base.host.waits.set('p1', [w]);
    await sender.sync('p1', [w], true);
    await sender.sendDue();
    expect(writes).toEqual(['put p1/1 1']);
    base.clock.set(sender.nextDue()!);
    await sender.sendDue();
    expect(base.host.fired).toMatchObject([{ outcome: { ok: true, attempts: 2 } }]);
    expect(writes).toEqual(['put p1/1 1', 'delete p1/1']);
    expect(base.store.rows.size).toBe(0);
  });

  it('rule: a row an earlier version left for an attempt in flight ({ attempts: n, due: null }) sends attempt n again, same key', async () => {
    const { host, store, sender } = setup();
    const w = wait(1, recordedCall(server.origin + '/json', { retry }));
    host.waits.set('p1', [w]);
    await store.putCallProgress('p1', { seq: 1, attempts: 2, due: null });
    await sender.sync('p1', [w], true);
    await sender.sendDue();
    expect(host.fired).toMatchObject([{ outcome: { ok: true, attempts: 2 } }]);
    expect(store.rows.size).toBe(0);
  });

  it("rule: under the process's call lock, a wait the stored process no longer has is not sent, and one whose process may not run waits", async () => {
    const { host, store, deps } = setup();
    const locks = new InProcessLocks();
    const shared: Partial<CallSenderDeps> = {
      lease: (id) => holdLock(locks, id),
      stands: (id, seq) => host.stands(id, seq),
    };
    // Two runtimes that both know the wait (both found it on opening).
    const a = new CallSender({ ...deps, ...shared });
    const b = new CallSender({ ...deps, ...shared });
    const w = wait(1, recordedCall(server.origin + '/json'));
    host.waits.set('p1', [w]);
    await a.sync('p1', [w], true);
    await b.sync('p1', [w], true);
    await a.sendDue();
    await b.sendDue();
    expect(server.countByKey(idempotencyKey('p1', w))).toBe(1);
    expect(host.fired).toHaveLength(1);
    expect(b.progressOf('p1')).toEqual([]);
    expect(b.nextDue()).toBeNull();

    // Stopped in the other runtime: the wait stands, nothing is sent, nothing is due here.
    const w2 = wait(2, recordedCall(server.origin + '/json'));
    host.waits.set('p1', [w2]);
    host.held.add('p1');
    await b.sync('p1', [w2], true);
    await b.sendDue();
    expect(server.countByKey(idempotencyKey('p1', w2))).toBe(0);
    expect(b.nextDue()).toBeNull();
    // A commit that lets it run says so, and the attempt goes.
    host.held.delete('p1');
    await b.sync('p1', [w2], true);
    await b.sendDue();
    expect(server.countByKey(idempotencyKey('p1', w2))).toBe(1);
    expect(store.rows.size).toBe(0);
  });
});

describe("a process's call lock (the lease), held across a chain of calls", () => {
  /**
   * A sender whose fire brings the process to its next waits, as the supervisor's does: it
   * reads the process under its lock (`loaded`, the record numbering its waits from `seq`),
   * then commits the next waits, which the commit's sync tells the sender.
   */
  function chained(next: (fired: CallWait) => { seq: number; waits: CallWait[] }) {
    const { host, store, deps } = setup();
    const locks = new InProcessLocks();
    const counts = { leases: 0, reads: 0 };
    const sender: CallSender = new CallSender({
      ...deps,
      lease: (id) => (counts.leases++, holdLock(locks, id)),
      stands: (id, seq) => (counts.reads++, host.stands(id, seq)),
      fire: async (id, w, outcome, _entry, loaded) => {
        const then = next(w);
        loaded?.({ snapshot: { seq: then.seq } });
        await host.fire(id, w, outcome);
        host.waits.set(id, [...(host.waits.get(id) ?? []), ...then.waits]);
        await sender.sync(id, host.waits.get(id)!, true);
      },
    });
    return { host, store, locks, counts, sender };
  }

  it('rule: a wait made by the fire of an attempt sent under the lease is sent under the same lease, without reading the store', async () => {
    const chain = [1, 2, 3].map((seq) => wait(seq, recordedCall(server.origin + '/json')));
    const { host, store, locks, counts, sender } = chained((fired) => ({
      seq: fired.seq + 1,
      waits: chain.filter((c) => c.seq === fired.seq + 1),
    }));
    host.waits.set('p1', [chain[0]!]);
    await sender.sync('p1', [chain[0]!], true);
    for (let i = 0; i < 3; i++) await sender.sendDue();
    expect(host.fired.map((f) => f.seq)).toEqual([1, 2, 3]);
    // The first wait was known before the lease: read once. The others were made under it.
    expect(counts).toEqual({ leases: 1, reads: 1 });
    expect(store.rows.size).toBe(0);
    // Nothing is left to send: the lease is given back, and another runtime may take it.
    expect((await locks.withLock('p1', async () => 'free', { ifAvailable: true })).held).toBe(true);
  });

  it('rule: a wait made before the lease was had (another runtime sent it, and saved a retry) is read under it, not taken as new', async () => {
    const w1 = wait(1, recordedCall(server.origin + '/json'));
    // Made by another runtime before this one took the lease: numbered below the fire's record.
    const w2 = wait(2, recordedCall(server.origin + '/json', { retry }));
    const w5 = wait(5, recordedCall(server.origin + '/json'));
    const { host, store, counts, sender } = chained((fired) =>
      fired.seq === 1 ? { seq: 5, waits: [w5] } : { seq: fired.seq + 1, waits: [] },
    );
    host.waits.set('p1', [w1]);
    await sender.sync('p1', [w1], true);
    host.waits.set('p1', [w1, w2]);
    await store.putCallProgress('p1', { seq: 2, attempts: 1, due: T0 + 60_000 });
    await sender.sendDue();
    await sender.sendDue();
    // w1 read (known before the lease), w2 read (made before it: its retry is a minute away,
    // so nothing is sent), w5 made by w1's fire under the lease: sent without a read.
    expect(host.fired.map((f) => f.seq)).toEqual([1, 5]);
    expect(counts.reads).toBe(2);
    expect(server.countByKey(idempotencyKey('p1', w2))).toBe(0);
    expect(sender.progressOf('p1')).toEqual([{ seq: 2, attempts: 1, due: T0 + 60_000 }]);
  });
});

describe('a crash at every await point of a call', () => {
  // Each of the sender's awaits on the store, the network, the journal and the fire, dying just
  // before it and just after it; then a new sender on the same store carries on.
  // One failed attempt and a retry: 7 awaits (list; attempt, journal, put the retry's due;
  // attempt, fire with its journal entry, delete the row). Nothing is written before an attempt.
  const AWAITS = 7;

  async function crashAt(n: number, when: 'before' | 'after' | 'never') {
    const { host, store, deps } = setup();
    server.answerSequence = [500, 200];
    const w = wait(
      1,
      recordedCall(server.origin + '/sequence', { retry: { ...retry, interval: 0 } }),
    );
    host.waits.set('p1', [w]);
    let count = 0;
    let crashed = false;
    const crashing =
      <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        if (++count === n && when === 'before') throw ((crashed = true), new Error('crash'));
        const out = await fn(...args);
        if (count === n && when === 'after') throw ((crashed = true), new Error('crash'));
        return out;
      };
    const wrapped: CallSenderDeps = {
      ...deps,
      store: {
        listCallProgress: crashing((id: string) => store.listCallProgress(id)),
        putCallProgress: crashing((id: string, p: CallProgress) => store.putCallProgress(id, p)),
        deleteCallProgress: crashing((id: string, seq: number) =>
          store.deleteCallProgress(id, seq),
        ),
      },
      attempt: crashing(deps.attempt),
      journal: crashing(deps.journal!),
      fire: crashing(deps.fire),
    };
    const first = new CallSender(wrapped);
    try {
      await first.sync('p1', host.waits.get('p1')!, true);
      for (let i = 0; i < 3; i++) await first.sendDue();
    } catch (e) {
      if ((e as Error).message !== 'crash') throw e;
    }
    await first.idle().catch(() => undefined);
    // The restart: a new sender reads what was stored and the process as it is now.
    const second = new CallSender(deps);
    await second.sync('p1', host.waits.get('p1') ?? [], true);
    for (let i = 0; i < 3; i++) await second.sendDue();
    return { crashed, host, store, w, count };
  }

  it(`makes ${AWAITS} awaits in all when nothing crashes, each one crashed at below`, async () => {
    const { crashed, host, count } = await crashAt(0, 'never');
    expect(crashed).toBe(false);
    expect(host.fired).toHaveLength(1);
    expect(count).toBe(AWAITS);
  });

  for (let n = 1; n <= AWAITS; n++) {
    for (const when of ['before', 'after'] as const) {
      it(`await ${n}, ${when}: re-sends with the same key and applies the outcome once`, async () => {
        const { crashed, host, store, w } = await crashAt(n, when);
        expect(crashed).toBe(true);
        expect(host.fired).toHaveLength(1);
        expect(host.fired[0]!.outcome).toMatchObject({ ok: true, status: 200 });
        expect(
          server.requests.every((r) => r.headers['idempotency-key'] === idempotencyKey('p1', w)),
        ).toBe(true);
        expect(store.rows.size).toBe(0);
      });
    }
  }
});

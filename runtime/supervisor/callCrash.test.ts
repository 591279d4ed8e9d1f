import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edge, end, flow, start, wait } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { startTestServer, type TestServer } from '../calls/fixtures/testServer.ts';
import { allowOrigins } from '../calls/originAllowlist.ts';
import { secretsFrom } from '../calls/secrets.ts';
import { IdbStore } from '../store/idbStore.ts';
import { VirtualClock } from './clock.ts';
import type { CallOptions } from './options.ts';
import { Supervisor } from './supervisor.ts';
import { Crash, crashingStore } from '../store/fixtures/crashingStore.ts';

/**
 * Issue 25 point 2, tested as steps are (runtime/store/crash.test.ts): a crash or a closed tab
 * between sending an attempt and saving what it gave re-sends it, with the same Idempotency-Key,
 * after the restart, and the process completes once (docs/format.md#calls: delivery is at least
 * once). The crash falls at every await point of the store, in turn, the call-progress methods
 * among them.
 */

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
const END = T0 + 10 * MINUTE;

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

/** start → pay (a 503, then a 200 on the retry, into "paid") → ship (a 200, into "shipped") → end. */
function orderFlow(): Flow {
  const retry = { max: 3, interval: 'PT1M', on: [503] };
  return flow({
    id: 'order',
    nodes: [
      start(),
      wait('pay', [{ id: 'c', call: { url: `'${server.origin}/sequence'`, retry }, into: 'paid' }]),
      wait('ship', [{ id: 'c', call: { url: `'${server.origin}/json'` }, into: 'shipped' }]),
      end(),
    ],
    edges: [
      edge('start', 'pay'),
      edge('pay', 'ship', { trigger: 'c' }),
      edge('ship', 'end', { trigger: 'c' }),
    ],
  });
}

const calls = (): CallOptions => ({
  secrets: secretsFrom({}),
  allow: allowOrigins([server.origin]),
});

let databases = 0;

async function runOrder(supervisor: Supervisor, startIt: boolean) {
  if (startIt) await supervisor.start('order', { id: 'o', context: {} });
  await supervisor.advanceTo(END);
}

/** The keys the server saw, per path, from request `from` on. */
function keysByPath(from: number): Record<string, Set<string>> {
  const out: Record<string, Set<string>> = {};
  for (const r of server.requests.slice(from)) {
    const key = r.headers['idempotency-key'];
    (out[r.path] ??= new Set()).add(typeof key === 'string' ? key : '<none>');
  }
  return out;
}

/** Requests the server saw at `path`, from request `from` on. */
function seenAt(path: string, from: number): number {
  return server.requests.slice(from).filter((r) => r.path === path).length;
}

/** Runs the order, crashing at `crashAt`; then reopens, recovers and finishes it. */
async function crashAndRecover(crashAt: number) {
  const name = `call-crash-${++databases}`;
  server.answerSequence = [503, 200];
  const seenFrom = server.requests.length;
  const clock = new VirtualClock(T0);
  const first = await IdbStore.open(name);
  await first.putFlow(orderFlow());
  const crashing = crashingStore(first, crashAt);
  const tab = new Supervisor(crashing.store, clock, { calls: calls() });
  const error = await runOrder(tab, true).then(
    () => null,
    (e: unknown) => e,
  );
  // What the dead tab still had in flight settles (and writes nothing) before the next one opens.
  await tab.idle().catch(() => undefined);
  first.close();
  if (!crashing.crashed()) {
    if (error) throw error;
    return null;
  }
  // A crash is the only way the run may end early: nothing else failed.
  if (error !== null && !(error instanceof Crash)) throw error;

  const reopened = await IdbStore.open(name);
  const supervisor = new Supervisor(reopened, clock, { calls: calls() });
  // As after any crash (runtime/store/crash.test.ts): what was running runs on.
  await supervisor.wakeDue();
  await supervisor.runAll();
  await runOrder(supervisor, !(await reopened.getProcess('o')));
  await supervisor.idle();
  const record = (await reopened.getProcess('o'))!;
  const context = (await reopened.getContext(record.contextId))!.value as Record<string, unknown>;
  const journal = await reopened.journal('o');
  reopened.close();
  return {
    record,
    context,
    journal,
    keys: keysByPath(seenFrom),
    shipSent: seenAt('/json', seenFrom),
    crashSwallowed: error === null,
  };
}

describe('a crash at any await point of a call (issue 25 point 2; docs/format.md#calls)', () => {
  it('rule: after a restart the process ends done once, with the final answers, one key per wait, each trigger fired once', async () => {
    let swallowed = 0;
    let resent = 0;
    let k = 1;
    for (; ; k++) {
      const got = await crashAndRecover(k);
      if (!got) break;
      const at = `crash at point ${k}`;
      expect(got.record.status, at).toBe('done');
      expect(
        got.journal.filter((e) => e.type === 'done'),
        at,
      ).toHaveLength(1);
      expect(got.context.paid, at).toMatchObject({ ok: true, status: 200 });
      expect(got.context.shipped, at).toMatchObject({
        ok: true,
        status: 200,
        body: { ok: true, path: '/json' },
        attempts: 1,
      });
      for (const path of ['/sequence', '/json']) {
        const keys = got.keys[path];
        expect(keys?.size, `keys seen at ${path}, ${at}`).toBe(1);
        expect([...keys!][0], at).toMatch(/^wakeflow-o-\d+-(pay|ship)-g$/);
      }
      const woke = got.journal.flatMap((e) =>
        e.type === 'woke' ? [`${e.node}:${e.trigger}`] : [],
      );
      expect(woke, `fires of the triggers, ${at}`).toEqual(['pay:c', 'ship:c']);
      if (got.crashSwallowed) swallowed++;
      if (got.shipSent > 1) resent++;
    }
    // The run without a crash completes, and the crash points before it cover it all.
    expect(k).toBeGreaterThan(20);
    // Every crash reached the caller of the advance: none was lost in the background.
    expect(swallowed).toBe(0);
    // Some crashes fell between a send and the save of its answer: sent again, with its key.
    expect(resent).toBeGreaterThan(0);
  }, 240_000);
});

import { allowOrigins } from '../../runtime/calls/originAllowlist.ts';
import { DEFAULT_PER_ORIGIN } from '../../runtime/calls/originLimiter.ts';
import { noSecrets } from '../../runtime/calls/secrets.ts';
import { IdbStore } from '../../runtime/store/idbStore.ts';
import { ResilientStore } from '../../runtime/store/resilientStore.ts';
import { VirtualClock } from '../../runtime/supervisor/clock.ts';
import { WebLocks } from '../../runtime/supervisor/locks.ts';
import type { CallOptions } from '../../runtime/supervisor/options.ts';
import { Supervisor } from '../../runtime/supervisor/supervisor.ts';
import type { Flow } from '../../shared/schema.ts';
import { assertRunnable, loopFlow } from '../flows.ts';
import { T0 } from '../wakeflow.ts';
import { reportToBench } from './reportToBench.ts';

/**
 * The calls section's page side (bench/browser/calls.bench.ts): the runtime wired as the app's
 * worker wires it (web/runtime/workerRuntime.ts: IdbStore in a ResilientStore, Web Locks, the
 * worker's `fetch`, `inBrowser`, the default bound per origin), on a virtual clock so that the
 * bench decides when timers fall due. Calls go to the bench's own server (`origin`).
 */

const HOUR = 3_600_000;

/** The path the bench's server answers 200 with a small JSON body (runtime/calls' test server). */
const PATH = '/json';

function callOptions(origin: string): CallOptions {
  return {
    secrets: noSecrets,
    allow: allowOrigins([origin]),
    fetch: (input, init) => fetch(input, init),
    inBrowser: true,
  };
}

const call = (origin: string) => ({
  id: 'answered',
  into: 'answer',
  call: { method: 'GET' as const, url: `'${origin}${PATH}'` },
});

/**
 * loopFlow with a call after each sleep: tick → sleep (PT1H) → pay (one GET) → tick. A wake of
 * it is the timer's, the call sent and answered, and the call's fire, up to the next sleep.
 */
function loopWithCall(origin: string): Flow {
  const loop = loopFlow(1_000_000_000);
  return assertRunnable({
    ...loop,
    id: 'loop-call',
    nodes: [...loop.nodes, { id: 'pay', kind: 'continue-after', on: [call(origin)] }],
    edges: loop.edges
      .map((e) => (e.from === 'sleep' && e.to === 'tick' ? { ...e, to: 'pay' } : e))
      .concat({ id: 'paid', from: 'pay', to: 'tick' }),
  });
}

/** start → tick → pay (one GET) → tick while `count < passes`: one call after another. */
function callChain(origin: string, passes: number): Flow {
  return assertRunnable({
    format: 'flow/1',
    id: 'call-chain',
    nodes: [
      { id: 'start', kind: 'start' },
      { id: 'tick', kind: 'work', set: { count: 'count + 1' } },
      { id: 'pay', kind: 'continue-after', on: [call(origin)] },
      { id: 'end', kind: 'end' },
    ],
    edges: [
      { id: 'e0', from: 'start', to: 'tick' },
      { id: 'e1', from: 'tick', to: 'pay' },
      { id: 'e2', from: 'pay', to: 'tick', when: `count < ${passes}` },
      { id: 'e3', from: 'pay', to: 'end', when: `count >= ${passes}` },
    ],
  });
}

export interface CallWakeRounds {
  processes: number;
  /** Milliseconds per round without calls (loopFlow) and with one call per wake, in turn. */
  plainMs: number[];
  callMs: number[];
  /**
   * Milliseconds per round of the round's requests alone: as many bare `fetch`es of the same
   * request, six in flight at once (the sender's bound per origin), with no supervisor.
   */
  fetchMs: number[];
  setupMs: number;
}

async function sleepers(flow: Flow, processes: number, origin: string) {
  const idb = await IdbStore.open(`bench-calls-${flow.id}-${Date.now()}`);
  const store = new ResilientStore(idb);
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock, {
    locks: new WebLocks(navigator.locks),
    calls: callOptions(origin),
  });
  await store.putFlow(flow);
  // As bench/browser/main.ts does: one process started, the others copies of it in one batch,
  // all asleep at the timer.
  const first = await supervisor.start(flow.id, { context: { count: 0 } });
  if (first.status !== 'waiting') throw new Error(`process ${first.id} is ${first.status}`);
  const firstContext = await idb.getContext(first.contextId);
  if (!firstContext) throw new Error('the first process has no context');
  const copies = Array.from({ length: processes - 1 }, (_, i) => ({
    process: {
      ...first,
      id: `bench-p${i}`,
      contextId: `bench-c${i}`,
      created: first.created + i + 1,
    },
    context: { ...firstContext, id: `bench-c${i}` },
  }));
  await idb.saveBatch({
    flows: [],
    versions: [],
    contexts: copies.map((c) => c.context),
    changes: [],
    processes: copies.map((c) => c.process),
    journal: [],
  });
  let round = 0;
  return {
    /** Moves the clock an hour (every process falls due) and advances to it, calls included. */
    async wakeAll(): Promise<number> {
      round++;
      const start = performance.now();
      await store.flush();
      await supervisor.advanceTo(T0 + round * HOUR);
      await supervisor.idle();
      await store.flush();
      const ms = performance.now() - start;
      // Every process went round once: its count is the round's (one more than its start).
      const last = await idb.getContext(`bench-c${processes - 2}`);
      const count = (last?.value as { count?: number } | undefined)?.count;
      if (processes > 1 && count !== round + 1)
        throw new Error(`after round ${round} the last process counted ${String(count)}`);
      return ms;
    },
    close: () => idb.close(),
  };
}

/**
 * 1,000 processes (or `processes`) asleep at a timer, all woken per round: of loopFlow, and of
 * the same loop with one call per wake, in alternate rounds after one warm-up round of each, so
 * that a slow spell of the machine falls on both.
 */
async function callWakeBench(
  processes: number,
  rounds: number,
  origin: string,
): Promise<CallWakeRounds> {
  const setupStart = performance.now();
  const plain = await sleepers(assertRunnable(loopFlow(1_000_000_000)), processes, origin);
  const called = await sleepers(loopWithCall(origin), processes, origin);
  const setupMs = performance.now() - setupStart;
  await plain.wakeAll();
  await called.wakeAll();
  const plainMs: number[] = [];
  const callMs: number[] = [];
  const fetchMs: number[] = [];
  await bareFetches(processes, origin);
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      plainMs.push(await plain.wakeAll());
      callMs.push(await called.wakeAll());
    } else {
      callMs.push(await called.wakeAll());
      plainMs.push(await plain.wakeAll());
    }
    fetchMs.push(await bareFetches(processes, origin));
  }
  plain.close();
  called.close();
  return { processes, plainMs, callMs, fetchMs, setupMs };
}

/** `count` bare requests of the bench's call, six in flight at once: their time in ms. */
async function bareFetches(count: number, origin: string): Promise<number> {
  const start = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const response = await fetch(`${origin}${PATH}`, {
        method: 'GET',
        headers: { 'Idempotency-Key': `bench-bare-${next++}` },
        redirect: 'manual',
      });
      await response.json();
    }
  };
  await Promise.all(Array.from({ length: DEFAULT_PER_ORIGIN }, lane));
  return performance.now() - start;
}

export interface AttemptRounds {
  attempts: number;
  /** Milliseconds per attempt, per round: the supervisor's, and a bare fetch loop's. */
  supervisorMs: number[];
  fetchMs: number[];
}

/**
 * The supervisor's own time per attempt: one process making `attempts` calls one after another
 * (each answer's fire brings it to the next call, sent in the same instant of the virtual
 * clock), beside a bare loop of as many `fetch`es of the same request (the same method, URL,
 * Idempotency-Key header and `redirect`, so the same CORS preflight), each body read as JSON.
 * Rounds alternate which goes first, after a warm-up round of each.
 */
async function attemptBench(
  attempts: number,
  rounds: number,
  origin: string,
): Promise<AttemptRounds> {
  const idb = await IdbStore.open(`bench-attempts-${Date.now()}`);
  const store = new ResilientStore(idb);
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock, {
    locks: new WebLocks(navigator.locks),
    calls: callOptions(origin),
  });
  const flow = callChain(origin, attempts);
  await store.putFlow(flow);

  const viaSupervisor = async (): Promise<number> => {
    const start = performance.now();
    const p = await supervisor.start(flow.id, { context: { count: 0 } });
    // Advanced to where it stands: every attempt falls due now, each after the last's fire.
    await supervisor.advanceTo(clock.now());
    await supervisor.idle();
    const ms = performance.now() - start;
    const done = await supervisor.mustGet(p.id);
    if (done.status !== 'done') throw new Error(`the calling process is ${done.status}`);
    return ms / attempts;
  };
  let n = 0;
  const bare = async (): Promise<number> => {
    const start = performance.now();
    for (let i = 0; i < attempts; i++) {
      const response = await fetch(`${origin}${PATH}`, {
        method: 'GET',
        headers: { 'Idempotency-Key': `bench-${n++}` },
        redirect: 'manual',
      });
      await response.json();
    }
    return (performance.now() - start) / attempts;
  };

  await viaSupervisor();
  await bare();
  const supervisorMs: number[] = [];
  const fetchMs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      supervisorMs.push(await viaSupervisor());
      fetchMs.push(await bare());
    } else {
      fetchMs.push(await bare());
      supervisorMs.push(await viaSupervisor());
    }
  }
  idb.close();
  return { attempts, supervisorMs, fetchMs };
}

export interface CallsRounds {
  wakes: CallWakeRounds;
  attempts: AttemptRounds;
}

/**
 * The section as calls.bench.ts runs it, in a Chromium no DevTools client watches
 * (unwatchedPage.ts): with `?calls` in the page's address, both measures are taken with the
 * address's `processes`, `attempts`, `rounds` and `origin` (the server's), and reported to the
 * bench. Nothing happens without it.
 */
export function runCallsFromAddress(search: string): void {
  const q = new URLSearchParams(search);
  if (!q.has('calls')) return;
  const origin = q.get('origin') ?? '';
  const rounds = Number(q.get('rounds'));
  void reportToBench(search, async (): Promise<CallsRounds> => ({
    wakes: await callWakeBench(Number(q.get('processes')), rounds, origin),
    attempts: await attemptBench(Number(q.get('attempts')), rounds, origin),
  }));
}

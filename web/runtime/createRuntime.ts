import type { Pin } from '../../shared/pins.ts';
import { transfer, wrap, type Remote } from 'comlink';
import { inSeconds } from '../../runtime/expr/inSeconds.ts';
import type { Flow } from '../../shared/schema.ts';
import type { Checked } from '../calls/callSettingsRules.ts';
import type { TestRequestResult } from './testRequest.ts';
import { failureOf } from './workerFailure.ts';
import type { ResilientStore, SaveState } from '../../runtime/store/resilientStore.ts';
import type { Supervisor } from '../../runtime/supervisor/supervisor.ts';
import type { ClockState, Runaway, RuntimeEvent } from './runtimeProtocol.ts';
import type { PastContext } from '../../runtime/supervisor/pastContext.ts';
import type { NodeVisits } from '../../runtime/supervisor/nodeVisits.ts';
import type { WorkerEntry } from './runtimeWorker.ts';
import type { TestHooks } from './testHooks.ts';
import { PAGE_TICK_MS, paceOf } from './timeSource.ts';
import { startWatchdog, WATCHDOG_LIMITS } from './watchdog.ts';
import type { WorkerRuntime } from './workerRuntime.ts';
import type {
  Capabilities,
  Change,
  RuntimeClientState,
  WorkbenchRuntime,
} from './workbenchRuntime.ts';

/** This tab's worker runs everything the workbench offers. */
const WORKER_CAPABILITIES: Capabilities = {
  virtualClock: true,
  callSettings: true,
  pins: true,
  retention: true,
  stepping: true,
  fork: true,
  deploy: 'This browser runs each flow as it is saved: connect to a server to deploy',
};

/** A worker that runs the runtime, and what a call to it waits on besides its answer. */
interface Running {
  worker: Worker;
  remote: Remote<WorkerRuntime>;
  /** Rejects every call in flight when the worker is ended. */
  guard<T>(call: Promise<T>): Promise<T>;
  end(reason: Error): void;
}

/**
 * The workbench's runtime (workbenchRuntime.ts), run by this tab: starts it in a Web Worker (the store, the clock, the schedule, the supervisor
 * and the link to the other tabs live there) and keeps the page's side of it: a copy of the
 * clock and the save state, and what only the page knows, its visibility (and, for a test that
 * paces the worker with the page's clock, `?pace=page`, the page's time). A node that runs for
 * longer than the watchdog's limit, in a worker that then does not answer a ping, ends the
 * worker; a new one starts, fails that node first, and every call waiting on the old one is
 * refused with the reason.
 */
export async function createRuntime(options: {
  dbName: string;
  seed: readonly Flow[];
  /** The watchdog's limits; WATCHDOG_LIMITS unless a test sets others. */
  watchdog?: { limitMs: number; pingMs: number };
  /** What an e2e test asked of the dev server's app, passed to every worker (testHooks.ts). */
  testHooks?: TestHooks;
}): Promise<WorkbenchRuntime> {
  const limits = options.watchdog ?? WATCHDOG_LIMITS;
  const listeners = new Set<(change: Change) => void>();
  const notify = (change: Change) => listeners.forEach((l) => l(change));
  const everything: Change = { processes: [], flows: true };
  const pace = paceOf(location.search);
  let clock: ClockState = { mode: 'real' };
  let saveState: SaveState = { saved: true };
  const stateListeners = new Set<(state: RuntimeClientState) => void>();
  const tellState = (next: Partial<RuntimeClientState>) => {
    clock = next.clock ?? clock;
    saveState = next.saveState ?? saveState;
    stateListeners.forEach((l) => l({ clock, saveState }));
  };
  const progress = new Map<number, (reached: number, wakes: number) => void>();
  let advances = 0;

  const onEvent = (event: RuntimeEvent) => {
    switch (event.type) {
      case 'changed':
        tellState({ clock: event.clock, saveState: event.saveState });
        notify({ processes: event.processes, flows: event.flows });
        return;
      case 'busy':
        watchdog.busy(event);
        return;
      case 'idle':
        watchdog.idle();
        return;
      case 'progress':
        progress.get(event.advance)?.(event.reached, event.wakes);
    }
  };

  // A spare worker waits with its scripts loaded, so that one ended for a runaway is replaced
  // at once rather than after loading them again.
  let spare: Prepared | undefined;
  const spawn = (runaway?: Runaway) => {
    const prepared = spare ?? prepareWorker();
    spare = undefined;
    const opened = openWorker(
      prepared,
      {
        dbName: options.dbName,
        seed: options.seed,
        clock,
        pace,
        now: Date.now(),
        runaway,
        testHooks: options.testHooks,
      },
      onEvent,
    );
    void opened.then(
      () => (spare ??= prepareWorker()),
      () => undefined,
    );
    return opened;
  };
  let running: Promise<Running> = spawn();
  const watchdog = startWatchdog<Extract<RuntimeEvent, { type: 'busy' }>>({
    limitMs: limits.limitMs,
    pingMs: limits.pingMs,
    tickMs: 100,
    now: () => performance.now(),
    ping: () => running.then((r) => r.remote.ping()),
    onRunaway: (busy) => {
      const message =
        `ran for more than ${inSeconds(limits.limitMs)} in one call that could not be ` +
        'interrupted; the runtime was restarted and the node failed';
      void running.then((old) => {
        old.end(new Error(`process "${busy.process}", node "${busy.path}" ${message}`));
        running = spawn({ process: busy.process, path: busy.path, wake: busy.wake, message });
        void running.then(
          () => notify(everything),
          () => undefined,
        );
      });
    },
  });
  await running;

  /** Calls `method` of the part `pick` chooses, on whichever worker is running now. */
  const call = <R>(pick: (r: Remote<WorkerRuntime>) => Promise<R>): Promise<R> =>
    running.then((r) => r.guard(pick(r.remote)));
  const forward = <T extends object>(part: 'supervisor' | 'store'): Remote<T> =>
    new Proxy({} as Remote<T>, {
      get: (_target, method) =>
        // Not a thenable: an async function may return this object.
        typeof method !== 'string' || method === 'then'
          ? undefined
          : (...args: unknown[]) =>
              call((remote) => {
                const fn = (remote[part] as unknown as Record<string, unknown>)[method];
                return (fn as (...a: unknown[]) => Promise<unknown>)(...args);
              }),
    });

  // A hidden tab's timers are throttled: the worker catches up when the page is shown again.
  const onVisible = () => {
    if (document.visibilityState === 'visible') void call((r) => r.visible());
  };
  document.addEventListener('visibilitychange', onVisible);
  // Paced by the page (a test's clock): the worker's time is the page's, as last sent.
  const ticker =
    pace === 'page'
      ? setInterval(() => void running.then((r) => r.remote.tick(Date.now())), PAGE_TICK_MS)
      : undefined;

  const advanceTo: WorkbenchRuntime['clock']['advanceTo'] = async (
    target,
    { onProgress, signal },
  ) => {
    const advance = ++advances;
    if (onProgress) progress.set(advance, onProgress);
    const cancel = () => void call((r) => r.cancelAdvance(advance));
    signal?.addEventListener('abort', cancel);
    try {
      const ended = await call((r) => r.advanceTo(target, advance));
      // The worker tells its clock with the change it posts a little later; the page knows
      // where the advance ended now, so what it draws next is the end, not a time on the way.
      tellState({ clock: { mode: 'virtual', virtual: ended.reached } });
      return ended;
    } finally {
      progress.delete(advance);
      signal?.removeEventListener('abort', cancel);
    }
  };

  // The worker's supervisor and store, reached here only: the views ask by name.
  const supervisor = forward<Supervisor>('supervisor');
  const store = forward<ResilientStore>('store');

  return {
    capabilities: WORKER_CAPABILITIES,
    processes: {
      start: (flow, options) => supervisor.start(flow, options),
      fork: (source, options) => supervisor.fork(source, options),
      stop: (id) => supervisor.stop(id),
      resume: (id) => supervisor.resume(id),
      retry: (id) => supervisor.retry(id),
      drive: (id) => supervisor.drive(id),
      stepOnce: (id) => supervisor.stepOnce(id),
      wakeNow: (id) => supervisor.wakeNow(id),
      continueProblem: (id) => supervisor.continueProblem(id),
      resolve: (id, choice) => supervisor.resolve(id, choice),
      replaceContext: (id, value) => supervisor.replaceContext(id, value),
      deliverEvent: (name, payload, to) => supervisor.deliverEvent(name, payload, to),
      submitHuman: (id, nodePath, input, triggerId, waitSeq) =>
        supervisor.submitHuman(id, nodePath, input, triggerId, waitSeq),
      sendCallNow: (id, seq) => supervisor.sendCallNow(id, seq),
    },
    clock: {
      async useVirtual() {
        tellState({ clock: await call((r) => r.useVirtual()) });
      },
      async useReal() {
        tellState({ clock: await call((r) => r.useReal()) });
      },
      nextDue: () => supervisor.nextDue(),
      advanceTo,
    },
    onState(listener) {
      stateListeners.add(listener);
      listener({ clock, saveState });
      return () => stateListeners.delete(listener);
    },
    async flowsView() {
      const view = await call((r) => r.flowsView());
      tellState({ saveState: view.saveState });
      return view;
    },
    processList: (query) => call((r) => r.processList(query)),
    processCounts: (flow) => call((r) => r.processCounts(flow)),
    processIds: (flow, status) => call((r) => r.processIds(flow, status)),
    processNames: () => call((r) => r.processNames()),
    hasProcess: async (id) => Boolean(await store.getProcess(id)),
    reading: (id, journalLimit) => call((r) => r.reading(id, journalLimit)),
    leanReading: (id, journalLimit, flowsKey) =>
      call((r) => r.leanReading(id, journalLimit, flowsKey)),
    journal: (id) => store.journal(id),
    pastContext: (id, seq) => call((r) => r.pastContext(id, seq) as Promise<PastContext>),
    nodeVisits: (id, node, limit, upTo) =>
      call((r) => r.nodeVisits(id, node, limit, upTo) as Promise<NodeVisits>),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    wakeDue: () => call((r) => r.wakeDue()),
    retention: () => call((r) => r.retention()),
    setRetention: (passes) => call((r) => r.setRetention(passes)),
    openFlow: () => store.getMeta('openFlow'),
    setOpenFlow: (id) => store.putMeta('openFlow', id),
    callSettings: () => call((r) => r.callSettings()),
    // Comlink's Remote type spreads over a union's members; the value is the union itself.
    allowOrigin: (text) => call((r) => r.allowOrigin(text) as Promise<Checked<string>>),
    removeOrigin: (origin) => call((r) => r.removeOrigin(origin)),
    pinCall: (pin) => call((r) => r.pinCall(pin) as Promise<Checked<Pin>>),
    unpinCall: (at) => call((r) => r.unpinCall(at)),
    restorePins: (pins) => call((r) => r.restorePins(pins) as Promise<Checked<number>>),
    setSecret: (name, value) => call((r) => r.setSecret(name, value) as Promise<Checked<string>>),
    removeSecret: (name) => call((r) => r.removeSecret(name)),
    testRequest: (trigger) => call((r) => r.testRequest(trigger) as Promise<TestRequestResult>),
    saveFlow: (flow) => call((r) => r.saveFlow(flow)),
    deleteFlow: (id) => call((r) => r.deleteFlow(id)),
    deploy: () => Promise.resolve({ ok: false, error: String(WORKER_CAPABILITIES.deploy) }),
    close() {
      document.removeEventListener('visibilitychange', onVisible);
      clearInterval(ticker);
      watchdog.stop();
      void running.then((r) => r.end(new Error('the runtime was closed')));
      spare?.worker.terminate();
    },
  };
}

/** A worker started and loading its scripts, not yet told which workspace to open. */
interface Prepared {
  worker: Worker;
  entry: Remote<WorkerEntry>;
  /** Rejects when the worker's script fails to load or run. */
  failed: Promise<never>;
}

function prepareWorker(): Prepared {
  const worker = new Worker(new URL('./runtimeWorker.ts', import.meta.url), {
    type: 'module',
    name: 'wakeflow-runtime',
  });
  return { worker, entry: wrap<WorkerEntry>(worker), failed: failureOf(worker, 'the runtime') };
}

/** Opens the workspace in a prepared worker and waits until it is open. */
async function openWorker(
  { worker, entry, failed }: Prepared,
  start: Parameters<WorkerEntry['open']>[0],
  onEvent: (event: RuntimeEvent) => void,
): Promise<Running> {
  let end!: (reason: Error) => void;
  const ended = new Promise<never>((_, reject) => (end = reject));
  ended.catch(() => undefined);
  const events = new MessageChannel();
  events.port1.onmessage = (e: MessageEvent<RuntimeEvent>) => onEvent(e.data);
  // The steps' events go through the relay's worker, which passes a few a second on to the page
  // (stepRelay.ts): a long advance would otherwise post the page one task per step.
  const steps = new MessageChannel();
  const relayed = new MessageChannel();
  relayed.port1.onmessage = (e: MessageEvent<RuntimeEvent>) => onEvent(e.data);
  const relay = new Worker(new URL('./stepRelayWorker.ts', import.meta.url), {
    type: 'module',
    name: 'wakeflow-step-relay',
  });
  relay.postMessage({ steps: steps.port2, page: relayed.port2 }, [steps.port2, relayed.port2]);
  const guard = <T>(call: Promise<T>) => Promise.race([call, ended]);
  const remote = (await Promise.race([
    entry.open(start, transfer(events.port2, [events.port2]), transfer(steps.port1, [steps.port1])),
    failed,
  ])) as unknown as Remote<WorkerRuntime>;
  return {
    worker,
    remote,
    guard,
    end(reason) {
      worker.terminate();
      relay.terminate();
      events.port1.close();
      relayed.port1.close();
      end(reason);
    },
  };
}

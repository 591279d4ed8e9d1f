import { processRow } from './processRow.ts';
import { changesSinceSlept, flowsKeyOf, serials, type LeanReading } from './leanReading.ts';
import type { Flow } from '../../shared/schema.ts';
import { IdbStore } from '../../runtime/store/idbStore.ts';
import { ResilientStore } from '../../runtime/store/resilientStore.ts';
import { SwitchableClock } from '../../runtime/supervisor/clock.ts';
import type { Locks } from '../../runtime/supervisor/locks.ts';
import type { PendingWake, ProcessStatus } from '../../runtime/supervisor/records.ts';
import { Supervisor, type StartOptions } from '../../runtime/supervisor/supervisor.ts';
import type { ForkOptions } from '../../runtime/supervisor/fork.ts';
import { pastContextAtSeq, type PastContext } from '../../runtime/supervisor/pastContext.ts';
import { nodeVisits, VISITS_SHOWN, type NodeVisits } from '../../runtime/supervisor/nodeVisits.ts';
import type {
  ClockState,
  Peers,
  FlowsView,
  ListQuery,
  ProcessList,
  ProcessReading,
  RuntimeEvent,
  WorkerStart,
} from './runtimeProtocol.ts';
import { journalRetention } from './journalRetention.ts';
import { startScheduler } from './scheduler.ts';
import { timeSlices } from '../../runtime/supervisor/timeSlices.ts';
import { RUN_SLICE_MS } from '../../runtime/supervisor/limits.ts';
import { testFunctions } from './testFunctions.ts';
import { ownTime, pagePacedTime } from './timeSource.ts';
import { callOptionsFor } from './callOptions.ts';
import { testRequest, type TestRequestResult } from './testRequest.ts';
import { OriginLimiter } from '../../runtime/calls/originLimiter.ts';
import type { Call, Trigger } from '../../shared/schema.ts';
import type { Pin } from '../../shared/pins.ts';
import { pinStore } from '../calls/pinStore.ts';
import { randomId } from './randomId.ts';
import type { Checked } from '../calls/callSettingsRules.ts';

/** Journal entries the inspector reads at first; it asks for more a page at a time. */
export const JOURNAL_PAGE = 200;

/** The shortest time between two messages saying what changed. */
const CHANGE_GAP_MS = 50;

/** No other tabs (Node's tests, a runtime of its own). */
const noPeers: Peers = { post() {}, listen() {}, othersOpen: async () => false, close() {} };

/**
 * The runtime as it lives in its Web Worker: the workspace's store, the clock, the schedule and
 * the supervisor, the few calls the page makes that are more than one store or supervisor call,
 * and the link to the other tabs' runtimes (`peers`). Plain TypeScript with no worker globals,
 * so that it runs in Node's tests as it runs in the worker.
 */
export async function openWorkerRuntime(
  start: WorkerStart,
  post: (event: RuntimeEvent) => void,
  locks: Locks,
  peers: Peers = noPeers,
  /** Where step events (`busy`, `idle`) go: the page's step relay in the app; `post` if absent. */
  postStep: (event: RuntimeEvent) => void = post,
) {
  const idb = await IdbStore.open(start.dbName);
  const store = new ResilientStore(idb);
  idb.onDamaged((problem) => console.warn(problem.message));
  // The worker owns the clock and the schedule; only a test that paces it has the page send time.
  const paced = start.pace === 'page' ? pagePacedTime(start.now) : undefined;
  const time = paced ?? ownTime();
  const clock = new SwitchableClock(() => time.now());
  if (start.clock.mode === 'virtual') clock.useVirtual(start.clock.virtual);
  // The workspace's allowed origins and secrets, live (callOptions.ts): what the supervisor's
  // `calls` option takes, and what a test request is sent with.
  const calls = await callOptionsFor(start.dbName);
  // Test requests wait their turn among themselves only: they never hold up a process's calls.
  const testLimiter = new OriginLimiter();
  // The workspace's pinned answers (pinStore.ts): a pinned call is answered without sending.
  const pins = pinStore(store, locks);
  const supervisor = new Supervisor(store, clock, {
    locks,
    newId: randomId,
    watch: stepWatch(postStep),
    // A long run lets in the commands that arrive while it runs, Stop from any tab among them.
    betweenSteps: timeSlices(start.runSliceMs ?? RUN_SLICE_MS),
    // `$block`, when an e2e test of the dev server asked for it (testHooks.ts); else none.
    functions: testFunctions(start.testHooks),
    // Calls go out from this worker, to the workspace's allowed origins, with its secrets;
    // a pinned one is answered by its pin instead.
    calls: { ...calls, pins: pins.source() },
  });
  await seedWorkspace(idb, start.seed);
  // Before anything else can run it again: the step the last worker was ended in fails.
  const { runaway } = start;
  if (runaway) {
    await supervisor.failRunaway(runaway.process, runaway.path, runaway.message, runaway.wake);
  }
  const clockState = (): ClockState =>
    clock.mode === 'real' ? { mode: 'real' } : { mode: 'virtual', virtual: clock.now() };

  const retention = journalRetention(store);
  const scheduler = startScheduler({
    time,
    clock,
    nextDue: () => supervisor.nextDue(),
    async wakeDue() {
      // Saves what a full disk held back first. A tab that still cannot save leaves its schedule
      // to another tab that may: both stepping a process would run its steps twice once this
      // tab's held writes are saved. Alone, it runs on in memory (the warning says so).
      if (!(await store.flush()) && (await peers.othersOpen())) return;
      await supervisor.wakeDue();
      await supervisor.runAll();
    },
    onError: (e) => console.error(e),
  });

  // Changes are told in bursts (a long run commits many steps a second): at most one message
  // per CHANGE_GAP_MS to the page and to the other tabs, naming every process changed since.
  const changes = {
    processes: new Set<string>(),
    flows: false,
    ours: false,
    timer: undefined as ReturnType<typeof setTimeout> | undefined,
  };
  /** Set by `close`: what is told then reads nothing of the database it is closing. */
  let closing = false;
  const tell = () => {
    changes.timer = undefined;
    const processes = [...changes.processes];
    const { flows, ours } = changes;
    changes.processes.clear();
    changes.flows = changes.ours = false;
    post({ type: 'changed', processes, flows, clock: clockState(), saveState: store.saveState });
    if (ours) {
      peers.post({ type: 'changed', processes, flows });
      if (!closing) for (const process of processes) retention.touched(process);
    }
    if (!closing) scheduler.rearm();
  };
  const changed = (what: { process?: string; flows?: boolean; ours?: boolean } = {}) => {
    if (what.process !== undefined) changes.processes.add(what.process);
    if (what.flows) changes.flows = true;
    if (what.ours ?? true) changes.ours = true;
    if (changes.timer !== undefined) return;
    changes.timer = setTimeout(tell, CHANGE_GAP_MS);
  };
  supervisor.onChange((process) => changed({ process }));
  store.onSaveState(() => changed({ ours: false }));
  peers.listen((message) => {
    if (message.type === 'stop') void supervisor.requestStop(message.process);
    else {
      for (const process of message.processes) changed({ process, ours: false });
      changed({ flows: message.flows, ours: false });
    }
  });
  // Opening never waits for what is due or running: the schedule starts after it.
  void scheduler.runNow();

  const drives = new Set<Promise<unknown>>();
  const drive = (id: string) => {
    const run = supervisor.drive(id).catch((e: unknown) => console.error(e));
    drives.add(run);
    void run.finally(() => drives.delete(run));
    return run;
  };

  // The page's commands on processes, as the supervisor's, but a start returns once stored.
  const commands = new Proxy(supervisor, {
    get(target, method, receiver) {
      if (method === 'start') {
        return async (flowId: string, options: StartOptions = {}) => {
          const record = await target.start(flowId, { ...options, drive: false });
          // Driven beside whatever else runs, not queued behind the schedule's current run.
          if (record.status === 'running') void drive(record.id);
          return record;
        };
      }
      if (method === 'fork') {
        return async (source: string, options: ForkOptions) => {
          const record = await target.fork(source, options);
          if (record.status === 'running') void drive(record.id);
          return record;
        };
      }
      if (method === 'stop') {
        return (id: string) => {
          peers.post({ type: 'stop', process: id });
          return target.stop(id);
        };
      }
      const value: unknown = Reflect.get(target, method, receiver);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  const advances = new Map<number, AbortController>();

  // Flow objects numbered for leanReading's key: the supervisor hands out one per content. The
  // numbers are this worker's: another (a spare that took over) names its flows apart.
  const serial = serials();
  const worker = crypto.randomUUID();
  const flowSerial = (flow: Flow) => `${worker}.${serial(flow)}`;

  /** One process as the inspector shows it, in one call; undefined when there is none. */
  const reading = async (
    id: string,
    journalLimit = JOURNAL_PAGE,
  ): Promise<ProcessReading | undefined> => {
    const record = await store.getProcess(id);
    if (!record) return undefined;
    const [context, changes, page, flows, calls] = await Promise.all([
      store.getContext(record.contextId),
      store.contextChanges(record.contextId),
      store.journalPage(id, journalLimit),
      supervisor.sleptOn(record),
      supervisor.callProgress(id),
    ]);
    return {
      record,
      context: { version: context?.version ?? 0, value: context?.value ?? null },
      changes,
      journal: page.entries.reverse(),
      journalMore: page.more,
      flows,
      calls,
    };
  };

  return {
    supervisor: commands,
    /** The one write path: every write, deletes included, goes through the ResilientStore. */
    store,

    /** The workspace's flows and the save state, in one call. */
    async flowsView(): Promise<FlowsView> {
      const flows = (await store.listFlows()).sort((a, b) =>
        (a.name ?? a.id).localeCompare(b.name ?? b.id),
      );
      const damaged = idb.damaged().map((p) => p.message);
      return {
        flows,
        pins: await pins.list(),
        saveState: store.saveState,
        ...(damaged.length ? { damaged } : {}),
      };
    },

    /**
     * A window of the process table and its counts: only the window's process records are read
     * (along an index, or, sorted by another column or searched, found from index keys:
     * IdbStore.processWindow), and no context; the counts read none.
     */
    async processList(query: ListQuery): Promise<ProcessList> {
      const [counts, all, records] = await Promise.all([
        store.countProcesses(undefined, query.search),
        query.search ? store.countProcesses().then((c) => c.total) : undefined,
        store.processWindow(query),
      ]);
      const total =
        query.status === undefined ? counts.total : (counts.byStatus[query.status] ?? 0);
      return { query, rows: records.map(processRow), total, counts, all: all ?? counts.total };
    },
    /** How many processes there are, in all and per status (of one flow, if asked); no record read. */
    processCounts: (flow?: string) => store.countProcesses(flow),
    /** The ids of a flow's processes of one status, oldest first (a bulk action's targets). */
    async processIds(flow: string, status: ProcessStatus): Promise<string[]> {
      const records = await store.processWindow({ offset: 0, limit: Infinity, flow, status });
      return records.map((p) => p.id);
    },
    /**
     * Every process by id and flow, oldest first: what a new process may share a context with
     * (the start form lists them). Read from the indexes: no process record.
     */
    processNames: (): Promise<{ id: string; flow: string }[]> => store.processNames(),

    /**
     * A reading (below) without what the page holds or does not show (leanReading.ts): the
     * flows when `flowsKey` names the same objects, and the context changes not since the
     * process last slept.
     */
    async leanReading(
      id: string,
      journalLimit = JOURNAL_PAGE,
      flowsKey?: string,
    ): Promise<LeanReading | undefined> {
      const full = await reading(id, journalLimit);
      if (!full) return undefined;
      const key = flowsKeyOf(full.flows, flowSerial);
      return {
        ...full,
        changes: changesSinceSlept(full.changes, full.journal, id),
        flows: key === flowsKey ? undefined : full.flows,
        flowsKey: key,
      };
    },

    /** One process as the inspector shows it, in one call; undefined when there is none. */
    reading,

    /**
     * A process's context as of its journal entry `seq`, as of the entry that keeps the position
     * shown then (asOf.ts), rebuilt here: the page reads the answer, never the whole journal.
     */
    async pastContext(id: string, seq: number): Promise<PastContext> {
      const record = await store.getProcess(id);
      if (!record) return { ok: false, problem: `there is no process "${id}"` };
      const journal = await store.journal(id);
      return pastContextAtSeq(journal, seq, await store.contextChanges(record.contextId));
    },

    /**
     * The visits of one node of a process (its path, `sub/step`), read from its journal here:
     * the page gets the newest `limit` (at most VISITS_SHOWN) in detail and the count of all,
     * never the journal itself, however many passes a loop made. With `upTo` (a journal entry's
     * seq), only the visits up to that entry: the inspector's time travel.
     */
    async nodeVisits(
      id: string,
      node: string,
      limit = VISITS_SHOWN,
      upTo?: number,
    ): Promise<NodeVisits> {
      const record = await store.getProcess(id);
      if (!record) return { ok: false, problem: `there is no process "${id}"` };
      const [journal, changes, flows] = await Promise.all([
        store.journal(id),
        store.contextChanges(record.contextId),
        supervisor.sleptOn(record),
      ]);
      return nodeVisits({
        journal,
        changes,
        flows,
        flow: record.flow,
        node,
        limit,
        ...(typeof upTo === 'number' ? { upTo } : {}),
      });
    },

    clockState,
    /** The journal's retention rule: how many of a loop's last passes are kept in full. */
    retention: () => retention.keep(),
    async setRetention(passes: number): Promise<void> {
      await retention.set(passes);
      changed({ ours: false });
    },
    /** Answers at once, unless the worker's thread is stuck (the page's watchdog asks). */
    ping: () => true,
    /** The page's time, when it paces this worker (`?pace=page`); ignored otherwise. */
    tick(pageNow: number): void {
      paced?.tick(pageNow);
    },
    /** The page became visible: a hidden tab's timers are throttled, so it catches up now. */
    visible(): void {
      void scheduler.runNow();
    },
    useVirtual(at?: number): ClockState {
      clock.useVirtual(at);
      changed({ ours: false });
      return clockState();
    },
    useReal(): ClockState {
      clock.useReal();
      changed({ ours: false });
      return clockState();
    },

    /** Fires every timer due and runs what can run, now; resolves when that run is over. */
    wakeDue: () => scheduler.runNow(),
    /** Resolves once no run of the schedule is in progress. */
    async settled(): Promise<void> {
      while (drives.size > 0) await Promise.all(drives);
      await scheduler.settled();
    },

    /**
     * Advances the virtual clock to `target`, reporting each stop as a `progress` event of
     * `advance`; `cancelAdvance(advance)` ends it at the last time reached.
     */
    async advanceTo(target: number, advance: number) {
      const controller = new AbortController();
      advances.set(advance, controller);
      try {
        return await supervisor.advanceTo(target, {
          signal: controller.signal,
          // The passes the rule would delete after each batch are summed up before it commits.
          keepPasses: await retention.keep(),
          onProgress: (reached, wakes) => post({ type: 'progress', advance, reached, wakes }),
        });
      } finally {
        advances.delete(advance);
        changed({ ours: false });
      }
    },
    cancelAdvance(advance: number): void {
      advances.get(advance)?.abort();
    },

    /**
     * The call settings as the page may see them: the origins, and secrets by name only. No
     * method here gives a secret's value back (docs/security.md#calls).
     */
    callSettings: () => calls.view(),
    allowOrigin: (text: string) => calls.allowOrigin(text),
    removeOrigin: (origin: string) => calls.removeOrigin(origin),
    setSecret: (name: string, value: string) => calls.setSecret(name, value),
    removeSecret: (name: string) => calls.removeSecret(name),
    /**
     * Sends one attempt of a call trigger as the designer wrote it, with the workspace's
     * settings, against an empty context; no process, nothing stored (testRequest.ts).
     */
    testRequest: (trigger: Trigger & { call: Call }): Promise<TestRequestResult> =>
      testRequest(
        trigger,
        {},
        {
          secrets: calls.secrets,
          allow: calls.allow,
          limiter: testLimiter,
          fetch: calls.fetch,
          inBrowser: calls.inBrowser,
          now: () => performance.now(),
        },
      ),

    /**
     * Pins an answer to a call, or removes a call's pin, or restores an import's pins
     * (docs/format.md#pinned-answers); every tab hears of it as a change of the flows.
     */
    async pinCall(pin: Pin): Promise<Checked<Pin>> {
      const kept = await pins.pin(pin);
      if (kept.ok) changed({ flows: true });
      return kept;
    },
    async unpinCall(at: { flow: string; node: string; trigger: string }): Promise<boolean> {
      const removed = await pins.unpin(at);
      if (removed) changed({ flows: true });
      return removed;
    },
    async restorePins(given: Pin[]): Promise<Checked<number>> {
      const restored = await pins.restore(given);
      if (restored.ok && restored.value > 0) changed({ flows: true });
      return restored;
    },

    async saveFlow(flow: Flow): Promise<void> {
      await store.putFlow(flow);
      changed({ flows: true });
    },
    async deleteFlow(id: string): Promise<void> {
      await store.deleteFlow(id);
      changed({ flows: true });
    },
    close(): void {
      // A burst not yet told is told now, so that the other tabs learn of it, and not later,
      // when the journal's rule would read the closed database.
      closing = true;
      if (changes.timer !== undefined) {
        clearTimeout(changes.timer);
        tell();
      }
      scheduler.stop();
      peers.close();
      calls.close();
      idb.close();
    },
  };
}

export type WorkerRuntime = Awaited<ReturnType<typeof openWorkerRuntime>>;

/**
 * Tells the page's watchdog which node each step is in. `busy` goes before every node (a node
 * that then blocks the thread can post nothing more); `idle` only once no step has followed the
 * last one by the next turn of the event loop: a run of many quick steps (an advance) posts one
 * message a step, not two, and the page hears `idle` when the worker is free to answer a ping.
 */
function stepWatch(post: (event: RuntimeEvent) => void) {
  let inStep = false;
  let idleQueued = false;
  return {
    entering(process: string, path: string, wake: PendingWake | null) {
      inStep = true;
      post({ type: 'busy', process, path, wake });
    },
    left() {
      inStep = false;
      if (idleQueued) return;
      idleQueued = true;
      setTimeout(() => {
        idleQueued = false;
        if (!inStep) post({ type: 'idle' });
      }, 0);
    },
  };
}

/** On first run the workspace opens on the examples, so the first minute shows what wakeflow does. */
async function seedWorkspace(idb: IdbStore, seed: readonly Flow[]): Promise<void> {
  if ((await idb.getMeta('seeded')) === true) return;
  for (const flow of seed) if (!(await idb.getFlow(flow.id))) await idb.putFlow(flow);
  await idb.putMeta('seeded', true);
}

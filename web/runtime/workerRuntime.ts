import type { Flow } from '../../shared/schema.ts';
import { IdbStore } from '../../runtime/store/idbStore.ts';
import { ResilientStore } from '../../runtime/store/resilientStore.ts';
import { SwitchableClock } from '../../runtime/supervisor/clock.ts';
import type { Locks } from '../../runtime/supervisor/locks.ts';
import { Supervisor } from '../../runtime/supervisor/supervisor.ts';
import type {
  ClockState,
  ProcessReading,
  ProcessView,
  RuntimeEvent,
  Views,
  WorkerStart,
} from './runtimeProtocol.ts';

/**
 * The runtime as it lives in its Web Worker: the workspace's store, the clock and the supervisor,
 * and the few calls the page makes that are more than one store or supervisor call. Plain
 * TypeScript with no worker globals, so that it runs in Node's tests as it runs in the worker.
 */
export async function openWorkerRuntime(
  start: WorkerStart,
  post: (event: RuntimeEvent) => void,
  locks: Locks,
) {
  const idb = await IdbStore.open(start.dbName);
  const store = new ResilientStore(idb);
  // Real time is the page's: the page schedules wakes and shows countdowns by its own clock, so
  // the worker's must agree with it (a test's fake page clock does not reach workers).
  let offset = start.now - Date.now();
  const clock = new SwitchableClock(() => Date.now() + offset);
  if (start.clock.mode === 'virtual') clock.useVirtual(start.clock.virtual);
  const supervisor = new Supervisor(store, clock, {
    locks,
    newId: (kind) => `${kind === 'process' ? 'p' : 'ctx'}-${crypto.randomUUID().slice(0, 8)}`,
    watch: {
      entering: (process, path, wake) => post({ type: 'busy', process, path, wake }),
      left: () => post({ type: 'idle' }),
    },
  });
  await seedWorkspace(idb, start.seed);
  // Before anything else can run it again: the step the last worker was ended in fails.
  const { runaway } = start;
  if (runaway) {
    await supervisor.failRunaway(runaway.process, runaway.path, runaway.message, runaway.wake);
  }

  const clockState = (): ClockState =>
    clock.mode === 'real' ? { mode: 'real' } : { mode: 'virtual', virtual: clock.now() };
  const changed = () => post({ type: 'changed', clock: clockState(), saveState: store.saveState });
  supervisor.onChange(changed);
  store.onSaveState(changed);
  const advances = new Map<number, AbortController>();

  return {
    supervisor,
    store,
    idb,

    /** The workspace's flows and processes, each process with its context, in one call. */
    async views(): Promise<Views> {
      const flows = (await idb.listFlows()).sort((a, b) =>
        (a.name ?? a.id).localeCompare(b.name ?? b.id),
      );
      const processes = await Promise.all(
        (await store.listProcesses()).map(async (p): Promise<ProcessView> => {
          const context = await store.getContext(p.contextId);
          return {
            id: p.id,
            flow: p.flow,
            status: p.status,
            due: p.due,
            error: p.error,
            context: context?.value ?? null,
            wakes: p.wakes ?? 0,
          };
        }),
      );
      return { flows, processes, saveState: store.saveState };
    },

    /** One process as the inspector shows it, in one call; undefined when there is none. */
    async reading(id: string): Promise<ProcessReading | undefined> {
      const record = await store.getProcess(id);
      if (!record) return undefined;
      const [context, changes, journal, flows] = await Promise.all([
        store.getContext(record.contextId),
        store.contextChanges(record.contextId),
        store.journal(id),
        supervisor.sleptOn(record),
      ]);
      return {
        record,
        context: { version: context?.version ?? 0, value: context?.value ?? null },
        changes,
        journal,
        flows,
      };
    },

    clockState,
    /** Answers at once, unless the worker's thread is stuck (the page's watchdog asks). */
    ping: () => true,
    /** Takes the page's real time; the page sends it before each call. */
    syncTime(pageNow: number): void {
      offset = pageNow - Date.now();
    },
    useVirtual(at?: number): ClockState {
      clock.useVirtual(at);
      changed();
      return clockState();
    },
    useReal(): ClockState {
      clock.useReal();
      changed();
      return clockState();
    },

    /** Saves what a full disk held back, then fires every timer due and runs what can run. */
    async wakeDue(): Promise<void> {
      await store.flush();
      await supervisor.wakeDue();
      await supervisor.runAll();
    },
    nextDue: () => supervisor.nextDue(),

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
          onProgress: (reached, wakes) => post({ type: 'progress', advance, reached, wakes }),
        });
      } finally {
        advances.delete(advance);
        changed();
      }
    },
    cancelAdvance(advance: number): void {
      advances.get(advance)?.abort();
    },

    async saveFlow(flow: Flow): Promise<void> {
      await store.putFlow(flow);
      changed();
    },
    async deleteFlow(id: string): Promise<void> {
      await idb.deleteFlow(id);
      changed();
    },
    close(): void {
      idb.close();
    },
  };
}

export type WorkerRuntime = Awaited<ReturnType<typeof openWorkerRuntime>>;

/** On first run the workspace opens on the examples, so the first minute shows what wakeflow does. */
async function seedWorkspace(idb: IdbStore, seed: readonly Flow[]): Promise<void> {
  if ((await idb.getMeta('seeded')) === true) return;
  for (const flow of seed) if (!(await idb.getFlow(flow.id))) await idb.putFlow(flow);
  await idb.putMeta('seeded', true);
}

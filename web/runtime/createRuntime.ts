import type { Flow } from '../../shared/schema.ts';
import { IdbStore } from '../../runtime/store/idbStore.ts';
import { ResilientStore } from '../../runtime/store/resilientStore.ts';
import { SwitchableClock } from '../../runtime/supervisor/clock.ts';
import { InProcessLocks, WebLocks } from '../../runtime/supervisor/locks.ts';
import { Supervisor } from '../../runtime/supervisor/supervisor.ts';
import { startScheduler } from './scheduler.ts';

/** The runtime of one tab: the workspace's store, the supervisor, and their wiring to other tabs. */
export interface Runtime {
  idb: IdbStore;
  store: ResilientStore;
  /** Real time, or virtual time the designer moves forward (this tab only). */
  clock: SwitchableClock;
  supervisor: Supervisor;
  /** Tells this tab's views that something changed (here or in another tab). */
  onChange(listener: () => void): () => void;
  /** Wakes what is due now; the scheduler calls it, and so may a view. */
  wakeDue(): Promise<void>;
  /** Saves a workspace flow (kept in memory if the disk refuses) and tells every tab. */
  saveFlow(flow: Flow): Promise<void>;
  deleteFlow(id: string): Promise<void>;
  close(): void;
}

const CHANNEL = 'wakeflow:changes';

/**
 * Opens the workspace in IndexedDB and starts this tab's supervisor on the real clock. Per-process
 * Web Locks keep two tabs off one process; a BroadcastChannel tells the other tabs of every
 * change, so each sees the others' within a second. Timers that fell due while every tab was
 * closed fire now, in order of due time.
 */
export async function createRuntime(options: {
  dbName: string;
  seed: readonly Flow[];
}): Promise<Runtime> {
  const idb = await IdbStore.open(options.dbName);
  const store = new ResilientStore(idb);
  const locks =
    typeof navigator !== 'undefined' && navigator.locks
      ? new WebLocks(navigator.locks)
      : new InProcessLocks();
  const clock = new SwitchableClock();
  const supervisor = new Supervisor(store, clock, {
    locks,
    newId: (kind) => `${kind === 'process' ? 'p' : 'ctx'}-${crypto.randomUUID().slice(0, 8)}`,
  });
  await seedWorkspace(idb, options.seed);

  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = () => {
    notify();
    scheduler.reschedule();
  };
  const changed = () => {
    channel.postMessage({ type: 'changed' });
    notify();
  };
  supervisor.onChange(changed);
  store.onSaveState(notify);

  const wakeDue = async () => {
    await store.flush();
    await supervisor.wakeDue();
    await supervisor.runAll();
  };
  const scheduler = startScheduler({
    nextDue: () => supervisor.nextDue(),
    wakeDue,
    onError: (e) => console.error(e),
  });
  await scheduler.runNow();

  return {
    idb,
    store,
    clock,
    supervisor,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    wakeDue: () => scheduler.runNow(),
    async saveFlow(flow) {
      await store.putFlow(flow);
      changed();
    },
    async deleteFlow(id) {
      await idb.deleteFlow(id);
      changed();
    },
    close() {
      scheduler.stop();
      channel.close();
      idb.close();
    },
  };
}

/** On first run the workspace opens on the examples, so the first minute shows what wakeflow does. */
async function seedWorkspace(idb: IdbStore, seed: readonly Flow[]): Promise<void> {
  if ((await idb.getMeta('seeded')) === true) return;
  for (const flow of seed) if (!(await idb.getFlow(flow.id))) await idb.putFlow(flow);
  await idb.putMeta('seeded', true);
}

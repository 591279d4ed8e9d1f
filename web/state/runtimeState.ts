import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Pin } from '../../shared/pins.ts';
import type { Flow } from '../../shared/schema.ts';
import type { SaveState } from '../../runtime/store/resilientStore.ts';
import type { WorkbenchRuntime, RuntimeClientState } from '../runtime/workbenchRuntime.ts';
import type { ListQuery, ProcessList, ProcessView } from '../runtime/runtimeProtocol.ts';
import { storeContext } from './storeContext.ts';

export type { ProcessView };

/** The clock as this tab shows it: its mode, and its time at the last event or tick. */
export interface PageClock {
  mode: 'real' | 'virtual';
  now: number;
}

interface RuntimeState {
  /** Set once the runtime opened (the runtime itself is a service: RuntimeConnection). */
  ready: boolean;
  flows: Flow[];
  /** The workspace's pinned answers of calls, read with the flows. */
  pins: Pin[];
  /** The window of the process table last read, and its counts. */
  list: ProcessList;
  /** The window the process table shows now (its rows in view and around them, its filter). */
  listQuery: ListQuery;
  /**
   * The clock and the save state: the one copy on the page, fed by the runtime client's events
   * (followRuntime); every view that shows them, and every action that reads them, reads these.
   */
  clock: PageClock;
  saveState: SaveState;
  /** Why the runtime could not open, if it could not. */
  failure: string | undefined;
  /** The workspace was deleted (in this tab or another): its runtime is closed. */
  deleted: boolean;
}

/** Rows asked for before the table has measured its view. */
const FIRST_WINDOW = 60;

export type RuntimeStateStore = StoreApi<RuntimeState>;

export const createRuntimeStateStore = (): RuntimeStateStore =>
  createStore<RuntimeState>()(() => ({
    ready: false,
    flows: [],
    pins: [],
    list: {
      query: { offset: 0, limit: FIRST_WINDOW },
      rows: [],
      total: 0,
      counts: { total: 0, byStatus: {} },
      all: 0,
    },
    listQuery: { offset: 0, limit: FIRST_WINDOW },
    clock: { mode: 'real', now: Date.now() },
    saveState: { saved: true },
    failure: undefined,
    deleted: false,
  }));

const context = storeContext<RuntimeState>('the runtime state store');
export const RuntimeStateProvider = context.Provider;
export const useRuntimeState = context.useSlice;
export const useRuntimeStateStore = context.useStoreApi;

/** The clock's time now, as the page shows it. */
const nowOf = (clock: RuntimeClientState['clock']) => clock.virtual ?? Date.now();

/**
 * Keeps the clock and the save state in step with the runtime client: each event it tells (a
 * change from the worker, a switch of mode, the end of an advance) sets them, and real time
 * ticks once a second so that countdowns move. Returns how to stop.
 */
export function followRuntime(
  store: RuntimeStateStore,
  runtime: Pick<WorkbenchRuntime, 'onState'>,
  tickMs = 1000,
): () => void {
  const told = (state: RuntimeClientState) => {
    const before = store.getState();
    const clock = { mode: state.clock.mode, now: nowOf(state.clock) };
    // Real time moves on the tick alone: an event while it runs changes nothing shown.
    const sameClock =
      before.clock.mode === clock.mode && (clock.mode === 'real' || before.clock.now === clock.now);
    const sameSave = sameJson(before.saveState, state.saveState);
    if (sameClock && sameSave) return;
    store.setState({
      ...(sameClock ? {} : { clock }),
      ...(sameSave ? {} : { saveState: state.saveState }),
    });
  };
  const stop = runtime.onState(told);
  // A paused virtual clock does not move: only real time ticks.
  const ticker = setInterval(() => {
    const { clock } = store.getState();
    if (clock.mode === 'real') store.setState({ clock: { mode: 'real', now: Date.now() } });
  }, tickMs);
  return () => {
    stop();
    clearInterval(ticker);
  };
}

/**
 * Reads the workspace's flows; on opening and when the flows changed. (The save state the read
 * brings reaches the store as the runtime client's event, through followRuntime.)
 */
export async function refreshFlows(
  store: RuntimeStateStore,
  runtime: WorkbenchRuntime,
): Promise<void> {
  const view = await runtime.flowsView();
  const before = store.getState();
  const flows = sameJson(before.flows, view.flows) ? before.flows : view.flows;
  const pins = sameJson(before.pins, view.pins) ? before.pins : view.pins;
  // What is as it was keeps its object, so that the views that show it do not render.
  if (before.ready && flows === before.flows && pins === before.pins) return;
  store.setState({ ready: true, flows, pins });
}

/**
 * Reads the process table's window again. With `changed` (the processes a change event named),
 * only when the window holds one of them or the counts moved (a process came, went or changed
 * status, which may move rows into the window): the counts are read first, and they read no
 * process record.
 */
export async function refreshList(
  store: RuntimeStateStore,
  runtime: WorkbenchRuntime,
  changed?: ReadonlySet<string>,
): Promise<void> {
  const { list, listQuery } = store.getState();
  // Sorted by due time or wakes, a wake moves rows without changing any count; searched, a new
  // process changes the "of M" alone: then every change is read again (its rows kept if alike).
  const countsTell =
    listQuery.search === undefined &&
    listQuery.order?.by !== 'due' &&
    listQuery.order?.by !== 'wakes';
  if (changed && countsTell && sameQuery(list.query, listQuery)) {
    const holds = list.rows.some((p) => changed.has(p.id));
    if (!holds && sameJson(await runtime.processCounts(), list.counts)) return;
  }
  const read = await runtime.processList(listQuery);
  // A newer window was asked for meanwhile: this one is not shown (that one's read follows).
  if (!sameQuery(read.query, store.getState().listQuery)) return;
  const before = store.getState().list;
  const rows = keptRows(before.rows, read.rows);
  const counts = sameJson(before.counts, read.counts) ? before.counts : read.counts;
  if (
    rows === before.rows &&
    counts === before.counts &&
    read.total === before.total &&
    read.all === before.all &&
    sameQuery(read.query, before.query)
  )
    return;
  store.setState({
    list: { query: read.query, rows, total: read.total, counts, all: read.all },
  });
}

/** The process table asks for another window (it scrolled, it was filtered); read at once. */
export function showListWindow(
  store: RuntimeStateStore,
  runtime: WorkbenchRuntime | undefined,
  query: ListQuery,
): void {
  const state = store.getState();
  if (sameQuery(state.listQuery, query)) return;
  store.setState({ listQuery: query });
  if (runtime) void refreshList(store, runtime);
}

const sameQuery = (a: ListQuery, b: ListQuery) =>
  a.offset === b.offset && a.limit === b.limit && sameView(a, b);

/** Whether two queries list the same rows in the same order (their windows aside). */
export const sameView = (a: ListQuery, b: ListQuery) =>
  sameRows(a, b) && sameJson(a.order, b.order);

/** Whether two queries list the same processes (their order and windows aside). */
export const sameRows = (a: ListQuery, b: ListQuery) =>
  a.status === b.status && sameJson(a.search, b.search);

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The rows read now, each that is as it was by its object of before; the list too. */
function keptRows(before: ProcessView[], now: ProcessView[]): ProcessView[] {
  const byId = new Map(before.map((p) => [p.id, p]));
  let changed = before.length !== now.length;
  const out = now.map((p, i) => {
    const was = byId.get(p.id);
    const kept = was && sameJson(was, p) ? was : p;
    if (kept !== before[i]) changed = true;
    return kept;
  });
  return changed ? out : before;
}

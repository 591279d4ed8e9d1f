import { create } from 'zustand';
import type { Flow } from '../../shared/schema.ts';
import type { SaveState } from '../../runtime/store/resilientStore.ts';
import type { Runtime } from '../runtime/createRuntime.ts';
import type { ListQuery, ProcessList, ProcessView } from '../runtime/runtimeProtocol.ts';

export type { ProcessView };

interface RuntimeState {
  runtime: Runtime | undefined;
  flows: Flow[];
  /** The window of the process table last read, and its counts. */
  list: ProcessList;
  /** The window the process table shows now (its rows in view and around them, its filter). */
  listQuery: ListQuery;
  saveState: SaveState;
  /** Why the runtime could not open, if it could not. */
  failure: string | undefined;
}

/** Rows asked for before the table has measured its view. */
const FIRST_WINDOW = 60;

export const useRuntimeState = create<RuntimeState>(() => ({
  runtime: undefined,
  flows: [],
  list: {
    query: { offset: 0, limit: FIRST_WINDOW },
    rows: [],
    total: 0,
    counts: { total: 0, byStatus: {} },
  },
  listQuery: { offset: 0, limit: FIRST_WINDOW },
  saveState: { saved: true },
  failure: undefined,
}));

/** Reads the workspace's flows and the save state; on opening and when the flows changed. */
export async function refreshFlows(runtime: Runtime): Promise<void> {
  const view = await runtime.flowsView();
  const before = useRuntimeState.getState();
  const flows = sameJson(before.flows, view.flows) ? before.flows : view.flows;
  const saveState = sameJson(before.saveState, view.saveState) ? before.saveState : view.saveState;
  // What is as it was keeps its object, so that the views that show it do not render.
  if (before.runtime === runtime && flows === before.flows && saveState === before.saveState)
    return;
  useRuntimeState.setState({ runtime, flows, saveState });
}

/** The save state as the worker last told it (with every change). */
export function refreshSaveState(runtime: Runtime): void {
  const before = useRuntimeState.getState().saveState;
  if (!sameJson(before, runtime.saveState))
    useRuntimeState.setState({ saveState: runtime.saveState });
}

/**
 * Reads the process table's window again. With `changed` (the processes a change event named),
 * only when the window holds one of them or the counts moved (a process came, went or changed
 * status, which may move rows into the window): the counts are read first, and they read no
 * process record.
 */
export async function refreshList(runtime: Runtime, changed?: ReadonlySet<string>): Promise<void> {
  const { list, listQuery } = useRuntimeState.getState();
  if (changed && sameQuery(list.query, listQuery)) {
    const holds = list.rows.some((p) => changed.has(p.id));
    if (!holds && sameJson(await runtime.processCounts(), list.counts)) return;
  }
  const read = await runtime.processList(listQuery);
  // A newer window was asked for meanwhile: this one is not shown (that one's read follows).
  if (!sameQuery(read.query, useRuntimeState.getState().listQuery)) return;
  const before = useRuntimeState.getState().list;
  const rows = keptRows(before.rows, read.rows);
  const counts = sameJson(before.counts, read.counts) ? before.counts : read.counts;
  if (
    rows === before.rows &&
    counts === before.counts &&
    read.total === before.total &&
    sameQuery(read.query, before.query)
  )
    return;
  useRuntimeState.setState({ list: { query: read.query, rows, total: read.total, counts } });
}

/** The process table asks for another window (it scrolled, it was filtered); read at once. */
export function showListWindow(query: ListQuery): void {
  const state = useRuntimeState.getState();
  if (sameQuery(state.listQuery, query)) return;
  useRuntimeState.setState({ listQuery: query });
  if (state.runtime) void refreshList(state.runtime);
}

const sameQuery = (a: ListQuery, b: ListQuery) =>
  a.offset === b.offset && a.limit === b.limit && a.status === b.status;

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

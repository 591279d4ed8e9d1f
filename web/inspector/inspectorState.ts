import { useMemo } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Snapshot } from '../../runtime/engine/snapshot.ts';
import type { WorkbenchRuntime } from '../runtime/workbenchRuntime.ts';
import type { ProcessReading } from '../runtime/runtimeProtocol.ts';

/** Journal entries read at first, and added by each "Show older entries". */
export const JOURNAL_PAGE = 200;
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import { snapshotAsOf } from './asOf.ts';
import { seqOf } from './journalKinds.ts';
import { canvasDiffs, type CanvasDiff } from './canvasDiff.ts';
import { markStopped, overlayOf, type NodeRunState } from './overlay.ts';
import { scopeLevels, type ScopeLevel } from './scopePath.ts';
import { stepTrail, type StepTrail } from './stepTrail.ts';
import { inspectedProcess } from '../state/session.ts';
import { useRuntimeStateStore, type RuntimeStateStore } from '../state/runtimeState.ts';
import { storeContext } from '../state/storeContext.ts';

/** What the inspector shows of the selected process, read from the store on every change. */
export interface Inspection extends ProcessReading {
  /** The levels from the top-level flow down to the sub-flow opened in place; at least one. */
  levels: ScopeLevel[];
  /** The snapshot drawn: the process's now, or the one kept with the journal entry selected. */
  shown: { snapshot: Snapshot; entry: number | undefined };
  /** Its position, node by node, on the canvas of the last level's flow. */
  overlay: Map<string, NodeRunState>;
  /** For a process whose flow changed: what changed, by flow id. */
  diffs: Map<string, CanvasDiff>;
  /** The clock's time when this was read: the journal's chart ends there. */
  readAt: number;
  /** What the runtime called these flows (a lean reading's `flowsKey`), to hand back next time. */
  flowsKey?: string | undefined;
}

export interface InspectorState {
  selected: string | undefined;
  inspection: Inspection | undefined;
  /** Sub-flow node ids from the top-level flow to the one opened in place (`[]`: the top). */
  scope: string[];
  /** The journal entry whose snapshot is shown, read-only; undefined shows now. */
  asOf: number | undefined;
  /** A long advance in progress: how far it got, and how to cancel it. */
  advancing:
    | { from: number; target: number; reached: number; wakes: number; cancel: () => void }
    | undefined;
  /** The last control that could not be done, and why. */
  error: string | undefined;
  /** How many of the newest journal entries are read; more, a page at a time, on request. */
  journalLimit: number;
  /**
   * What the last Step or Run of the inspected process did, marked on the canvas until the
   * next one; `key` counts them, so that a token runs again along an edge taken twice in a row.
   */
  trail: (StepTrail & { process: string; key: number }) | undefined;
}

export type InspectorStore = StoreApi<InspectorState>;

export const createInspectorStore = (): InspectorStore =>
  createStore<InspectorState>()(() => ({
    selected: undefined,
    inspection: undefined,
    scope: [],
    asOf: undefined,
    advancing: undefined,
    error: undefined,
    journalLimit: JOURNAL_PAGE,
    trail: undefined,
  }));

const context = storeContext<InspectorState>('the inspector store');
export const InspectorProvider = context.Provider;
export const useInspector = context.useSlice;
export const useInspectorStore = context.useStoreApi;

/** What reading a process needs: the inspector's store, and the clock (the journal ends now). */
export interface InspectorStores {
  inspector: InspectorStore;
  runtimeState: RuntimeStateStore;
}

export function useInspectorStores(): InspectorStores {
  const inspector = useInspectorStore();
  const runtimeState = useRuntimeStateStore();
  return useMemo(() => ({ inspector, runtimeState }), [inspector, runtimeState]);
}

export function selectProcess(inspector: InspectorStore, id: string | undefined): void {
  // Kept for this tab, so that a reload shows the same process.
  inspectedProcess.set(id);
  inspector.setState({
    selected: id,
    inspection: undefined,
    scope: [],
    asOf: undefined,
    error: undefined,
    journalLimit: JOURNAL_PAGE,
    trail: undefined,
  });
}

/** The store's number of the newest journal entry read of the inspected process, if any. */
export function newestSeq(inspector: InspectorStore): number | undefined {
  const journal = inspector.getState().inspection?.journal;
  const last = journal?.at(-1);
  return last && seqOf(last);
}

/**
 * Marks what a Step or Run of `process` did: the journal entries read since the one numbered
 * `afterSeq`. Called once the control's reading is in; a process inspected meanwhile is left
 * unmarked.
 */
export function markTrail(
  inspector: InspectorStore,
  process: string,
  afterSeq: number | undefined,
): void {
  const { inspection, trail } = inspector.getState();
  if (!inspection || inspection.record.id !== process) return;
  const next = stepTrail(inspection.journal, afterSeq, inspection.record.flow, inspection.flows);
  inspector.setState({ trail: { ...next, process, key: (trail?.key ?? 0) + 1 } });
}

/**
 * The prefix of node and edge paths on the canvas shown (`''` at the top, `sub/` inside a
 * sub-flow opened in place), or undefined when the canvas shows no step's trail: another flow,
 * another process's trail, or a moment of the journal picked (the trail is of now).
 */
export function trailPrefix(s: InspectorState, flowOnCanvas: string): string | undefined {
  const { trail, inspection } = s;
  if (!trail || !inspection || s.asOf !== undefined) return undefined;
  if (trail.process !== inspection.record.id || shownFlow(s) !== flowOnCanvas) return undefined;
  return inspection.levels
    .at(-1)!
    .path.map((p) => `${p}/`)
    .join('');
}

/** Reads a page more of the selected process's journal, older than those shown. */
export async function showOlderJournal(
  stores: InspectorStores,
  runtime: WorkbenchRuntime,
): Promise<void> {
  stores.inspector.setState((s) => ({ journalLimit: s.journalLimit + JOURNAL_PAGE }));
  await refreshInspection(stores, runtime);
}

type Raw = ProcessReading;

/**
 * The derived parts of an inspection: the levels of the scope opened in place, the snapshot
 * shown (now, or as of a journal entry), the overlay for that scope and moment, and the
 * changes to draw. Unchanged diffs keep their object, so the canvas does not redraw ghosts.
 */
function derive(
  raw: Raw,
  scope: readonly string[],
  asOf: number | undefined,
  before: Inspection | undefined,
  readAt: number,
): Inspection {
  const levels = scopeLevels(raw.record.flow, scope, raw.flows);
  const kept = asOf === undefined ? undefined : snapshotAsOf(raw.journal, asOf);
  const shown = kept
    ? { snapshot: kept.snapshot, entry: kept.entry }
    : { snapshot: raw.record.snapshot, entry: undefined };
  // As of an entry, the journal after it has not happened yet.
  const journal = kept ? raw.journal.slice(0, kept.entry + 1) : raw.journal;
  const path = levels[levels.length - 1]!.path;
  const changes = raw.record.status === 'flow-changed' ? raw.record.changes : [];
  const sameChanges =
    before !== undefined &&
    JSON.stringify(before.record.status === 'flow-changed' ? before.record.changes : []) ===
      JSON.stringify(changes);
  const overlay = overlayOf(shown, journal, raw.flows, path);
  if (!kept && raw.record.status === 'stopped') markStopped(overlay);
  // A node whose position is as it was keeps its object: its badge does not render.
  for (const [node, state] of overlay) {
    const was = before?.overlay.get(node);
    if (was && same(was, state)) overlay.set(node, was);
  }
  return {
    ...raw,
    levels: before && same(before.levels, levels) ? before.levels : levels,
    shown:
      before && before.shown.entry === shown.entry && before.shown.snapshot === shown.snapshot
        ? before.shown
        : shown,
    overlay,
    diffs: sameChanges ? before.diffs : canvasDiffs(changes, raw.flows),
    readAt,
  };
}

function rederive(
  inspector: InspectorStore,
  patch: { scope?: string[]; asOf?: number | undefined },
): void {
  inspector.setState((s) => {
    const scope = patch.scope ?? s.scope;
    const asOf = 'asOf' in patch ? patch.asOf : s.asOf;
    return {
      scope,
      asOf,
      inspection: s.inspection
        ? derive(s.inspection, scope, asOf, s.inspection, s.inspection.readAt)
        : undefined,
    };
  });
}

/** Shows the process at the moment of a journal entry (read-only), or now with undefined. */
export function showAsOf(inspector: InspectorStore, entry: number | undefined): void {
  rederive(inspector, { asOf: entry });
}

/** Sets the sub-flow opened in place, by sub-flow node ids from the top-level flow. */
export function setScope(inspector: InspectorStore, path: string[]): void {
  rederive(inspector, { scope: path });
}

/** The flow the canvas must show for the inspected process's overlay to be drawn. */
export function shownFlow(s: Pick<InspectorState, 'inspection'>): string | undefined {
  const levels = s.inspection?.levels;
  return levels?.[levels.length - 1]!.flow;
}

/** Reads the selected process afresh; called when it changed, here or in another tab. */
export async function refreshInspection(
  stores: InspectorStores,
  runtime: WorkbenchRuntime,
): Promise<void> {
  const { inspector } = stores;
  const id = inspector.getState().selected;
  if (!id) return;
  const raw = await readProcess(runtime, id, inspector.getState());
  const s = inspector.getState();
  if (s.selected !== id) return;
  if (!raw) {
    // The process is gone (deleted in another tab, or a stale id kept from before a reload).
    inspector.setState({ inspection: undefined, selected: undefined });
    inspectedProcess.set(undefined);
    return;
  }
  const asOf = sameEntry(s.inspection?.journal, raw.journal, s.asOf);
  const before = s.inspection;
  const kept = before ? keepSame(before, raw) : { reading: raw, unchanged: false };
  // Nothing read has changed: nothing is set, so nothing renders.
  if (before && asOf === s.asOf && kept.unchanged) return;
  inspector.setState({
    asOf,
    inspection: {
      ...derive(kept.reading, s.scope, asOf, before, stores.runtimeState.getState().clock.now),
      flowsKey: raw.flowsKey,
    },
  });
}

/**
 * The selected process as the runtime reads it: where the runtime can leave out what the page
 * holds (leanReading), without the flows when the inspection holds the same, and without the
 * context changes the inspector does not show; then with the flows held.
 */
async function readProcess(
  runtime: WorkbenchRuntime,
  id: string,
  s: InspectorState,
): Promise<(ProcessReading & { flowsKey?: string }) | undefined> {
  if (!runtime.leanReading) return runtime.reading(id, s.journalLimit);
  const held = s.inspection?.record.id === id ? s.inspection : undefined;
  const lean = await runtime.leanReading(id, s.journalLimit, held?.flowsKey);
  if (!lean) return undefined;
  // Flows left out are those held: the key named them.
  const flows = lean.flows ?? held?.flows;
  if (!flows) return runtime.reading(id, s.journalLimit);
  return { ...lean, flows };
}

/**
 * Whether two parts of a reading are the same, compared as JSON; the text of each part held is
 * kept with it, so a reading compares only the new part's text against it.
 */
const texts = new WeakMap<object, string>();
const textOf = (v: unknown): string => {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  let text = texts.get(v);
  if (text === undefined) texts.set(v, (text = JSON.stringify(v)));
  return text;
};
const same = (a: unknown, b: unknown) => a === b || textOf(a) === JSON.stringify(b);

/**
 * A reading with every part that is as it was replaced by the part read before, so that the
 * panels that show only unchanged parts get the same objects and do not render (useInspectionOf.ts).
 */
const flowsLists = new WeakMap<ReadonlyMap<string, unknown>, unknown[]>();
/** The flows as a list, one list per Map, so that its text is kept with it (textOf). */
function flowsList(flows: ReadonlyMap<string, unknown>): unknown[] {
  let list = flowsLists.get(flows);
  if (!list) flowsLists.set(flows, (list = [...flows]));
  return list;
}

function keepSame(before: Inspection, raw: ProcessReading) {
  const reading: ProcessReading = {
    record: same(before.record, raw.record) ? before.record : raw.record,
    context: same(before.context, raw.context) ? before.context : raw.context,
    changes: same(before.changes, raw.changes) ? before.changes : raw.changes,
    journal: same(before.journal, raw.journal) ? before.journal : raw.journal,
    journalMore: raw.journalMore,
    flows:
      raw.flows === before.flows || same(flowsList(before.flows), [...raw.flows])
        ? before.flows
        : raw.flows,
    calls: same(before.calls, raw.calls) ? before.calls : raw.calls,
  };
  const unchanged =
    reading.journalMore === before.journalMore &&
    (['record', 'context', 'changes', 'journal', 'flows', 'calls'] as const).every(
      (k) => reading[k] === before[k],
    );
  return { reading, unchanged };
}

/**
 * Where the entry chosen in the journal read before is in the journal read now: entries are
 * read newest first a page at a time, so a new entry, or an older page, moves every index. An
 * entry is known by its store key; one summed up since is gone, and the choice with it.
 */
export function sameEntry(
  before: readonly JournalEntry[] | undefined,
  now: readonly JournalEntry[],
  asOf: number | undefined,
): number | undefined {
  if (asOf === undefined || !before) return asOf;
  const seq = before[asOf] && seqOf(before[asOf]);
  if (seq === undefined) return asOf < now.length ? asOf : undefined;
  const at = now.findIndex((e) => seqOf(e) === seq);
  return at === -1 ? undefined : at;
}

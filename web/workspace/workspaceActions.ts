import type { Flow } from '../../shared/schema.ts';
import { currentFlow, openFlow, renameFlow, useDesigner } from '../designer/designerStore.ts';
import type { Runtime } from '../runtime/createRuntime.ts';
import { useRuntimeState } from '../state/runtimeState.ts';
import { freshId } from '../designer/newIds.ts';

/** This tab's runtime, once the workspace has opened: an action taken sooner waits for it. */
export function runtime(): Promise<Runtime> {
  const ready = useRuntimeState.getState().runtime;
  if (ready) return Promise.resolve(ready);
  return new Promise((resolve) => {
    const unsubscribe = useRuntimeState.subscribe((s) => {
      if (!s.runtime) return;
      unsubscribe();
      resolve(s.runtime);
    });
  });
}

export const workspaceFlows = (): Map<string, Flow> =>
  new Map(useRuntimeState.getState().flows.map((f) => [f.id, f]));

/** Undo histories of the flows not open now, by flow id, for this tab's life. */
const histories = new Map<string, ReturnType<typeof useDesigner.getState>['history']>();

/**
 * Opens a workspace flow on the canvas, and remembers it for the next visit. A flow just saved
 * is passed in: the workspace's list catches up with a save only on the next frame.
 */
export async function openWorkspaceFlow(
  id: string,
  flow: Flow | undefined = workspaceFlows().get(id),
): Promise<void> {
  if (!flow) return;
  const { meta, open, history } = useDesigner.getState();
  // The flow on the canvas already: opening it again would only wipe its undo history.
  if (open && meta.id === id) return;
  // An edit still waiting for its autosave belongs to the flow open now: save it before leaving.
  await savePendingEdit();
  if (open && meta.id) histories.set(meta.id, history);
  openFlow(flow);
  // Each flow keeps its undo history while the tab lives, however often another is opened.
  const kept = histories.get(id);
  if (kept) useDesigner.setState({ history: kept });
  await (await runtime()).store.putMeta('openFlow', id);
}

/** The example a first visit opens on: the daily loop shows most of what wakeflow does. */
export const FIRST_FLOW = 'nightly-refresh';

/** The flow to open at start: the one open last time, else the daily loop, else the first. */
export async function initialFlowId(): Promise<string | undefined> {
  const last = await (await runtime()).store.getMeta('openFlow');
  const flows = workspaceFlows();
  if (typeof last === 'string' && flows.has(last)) return last;
  if (flows.has(FIRST_FLOW)) return FIRST_FLOW;
  return useRuntimeState.getState().flows[0]?.id;
}

/** A new flow with a start and an end, saved and opened. */
export async function createFlow(): Promise<void> {
  const id = freshId('flow-', new Set(workspaceFlows().keys()));
  const flow: Flow = {
    format: 'flow/1',
    id,
    name: 'New flow',
    nodes: [
      { id: 'start', kind: 'start', position: { x: 0, y: 0 } },
      { id: 'end', kind: 'end', position: { x: 240, y: 0 } },
    ],
    edges: [{ id: 'e1', from: 'start', to: 'end' }],
  };
  await (await runtime()).saveFlow(flow);
  await openWorkspaceFlow(id, flow);
}

export async function renameWorkspaceFlow(id: string, name: string): Promise<void> {
  const flow = id === useDesigner.getState().meta.id ? currentFlow() : workspaceFlows().get(id);
  if (!flow) return;
  // Renaming the open flow is an edit like any other: it can be undone, and autosave saves it.
  if (id === useDesigner.getState().meta.id) return renameFlow(name);
  await (await runtime()).saveFlow({ ...flow, name });
}

export async function duplicateWorkspaceFlow(id: string): Promise<void> {
  const flow = workspaceFlows().get(id);
  if (!flow) return;
  const copyId = freshId(`${id}-copy-`, new Set(workspaceFlows().keys()));
  const copy = { ...structuredClone(flow), id: copyId, name: `${flow.name ?? flow.id} (copy)` };
  await (await runtime()).saveFlow(copy);
  await openWorkspaceFlow(copyId, copy);
}

export async function deleteWorkspaceFlow(id: string): Promise<void> {
  const deletingOpen = useDesigner.getState().meta.id === id;
  // Closed first, so that a pending autosave cannot bring the deleted flow back.
  if (deletingOpen) useDesigner.setState({ open: false });
  else await savePendingEdit();
  await (await runtime()).deleteFlow(id);
  if (deletingOpen) {
    const next = useRuntimeState.getState().flows.find((f) => f.id !== id);
    if (next) await openWorkspaceFlow(next.id);
    else useDesigner.setState({ open: false, nodes: [], edges: [] });
  }
}

/** Adds imported flows (already given fresh ids) to the workspace and opens the first. */
export async function addImportedFlows(flows: readonly Flow[]): Promise<void> {
  for (const f of flows) await (await runtime()).saveFlow(f);
  if (flows[0]) await openWorkspaceFlow(flows[0].id, flows[0]);
}

/** Saves the open flow's edit that autosave has not saved yet, if there is one. */
let savePending: () => Promise<void> = async () => {};

/**
 * Saves the designer's last edit now rather than a moment later. The inspector's controls call it
 * first, so that a process never wakes on an older flow than the one on the canvas.
 */
export function savePendingEdit(): Promise<void> {
  return savePending();
}

/**
 * Saves the open flow on every change, a moment after the last one, so that nothing a user drew
 * is lost on a reload. Selection and hover are not changes.
 */
export function startAutosave(delayMs = 250): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending = false;
  let last = useDesigner.getState();
  const unsubscribe = useDesigner.subscribe((now) => {
    const before = last;
    last = now;
    // Opening another flow is not an edit of it: nothing to save.
    if (before.meta.id !== now.meta.id) return;
    const dropped = before.dragStart !== undefined && now.dragStart === undefined;
    if (!savedContentChanged(before, now) && !(dropped && pending)) return;
    pending = true;
    clearTimeout(timer);
    // A drag is saved once, when it ends: not the whole flow sent to the worker at each pause of
    // the pointer (a flow of 5,000 nodes is a megabyte to copy).
    if (now.dragStart !== undefined) return;
    timer = setTimeout(() => void save(), delayMs);
  });
  const save = async () => {
    clearTimeout(timer);
    pending = false;
    if (!useDesigner.getState().open) return;
    await (await runtime()).saveFlow(currentFlow());
  };
  savePending = () => (pending ? save() : Promise.resolve());
  const flushNow = () => void save();
  window.addEventListener('pagehide', flushNow);
  return () => {
    flushNow();
    savePending = async () => {};
    unsubscribe();
    window.removeEventListener('pagehide', flushNow);
  };
}

type DesignerSnapshot = ReturnType<typeof useDesigner.getState>;

/** Whether what would be saved changed: content or positions, not selection or problems. */
function savedContentChanged(a: DesignerSnapshot, b: DesignerSnapshot): boolean {
  if (a.meta !== b.meta || a.open !== b.open) return true;
  if (a.nodes.length !== b.nodes.length || a.edges.length !== b.edges.length) return true;
  const nodeMoved = a.nodes.some((n, i) => {
    const m = b.nodes[i]!;
    return (
      n.data.node !== m.data.node || n.position.x !== m.position.x || n.position.y !== m.position.y
    );
  });
  return nodeMoved || a.edges.some((e, i) => e.data?.edge !== b.edges[i]!.data?.edge);
}

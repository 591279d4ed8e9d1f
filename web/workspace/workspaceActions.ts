import type { Pin } from '../../shared/pins.ts';
import type { Flow } from '../../shared/schema.ts';
import {
  currentFlow,
  openFlow,
  renameFlow,
  type DesignerStore,
} from '../designer/designerStore.ts';
import type { WorkbenchRuntime } from '../runtime/workbenchRuntime.ts';
import type { RuntimeConnection } from '../state/runtimeConnection.ts';
import type { RuntimeStateStore } from '../state/runtimeState.ts';
import { serviceContext } from '../state/storeContext.ts';
import { freshId } from '../designer/newIds.ts';

/**
 * What the workspace's actions work on: the runtime (a service), the store of what it holds,
 * and what these actions keep for the tab's life (each flow's undo history, the autosave).
 */
interface Workspace {
  connection: RuntimeConnection;
  designer: DesignerStore;
  runtimeState: RuntimeStateStore;
  /** Undo histories of the flows not open now, by flow id, for this tab's life. */
  histories: Map<string, ReturnType<DesignerStore['getState']>['history']>;
  /** Saves the open flow's edit that autosave has not saved yet, if there is one. */
  savePending: () => Promise<void>;
}

/**
 * The workspace's actions as a service, made once per workbench and provided through context:
 * views call them; they reach the runtime and the stores through what they were made with.
 */
export function createWorkspaceActions(deps: {
  connection: RuntimeConnection;
  designer: DesignerStore;
  runtimeState: RuntimeStateStore;
}) {
  const ws: Workspace = { ...deps, histories: new Map(), savePending: async () => {} };
  return {
    runtime: () => runtime(ws),
    workspaceFlows: () => workspaceFlows(ws),
    openWorkspaceFlow: (id: string, flow?: Flow) => openWorkspaceFlow(ws, id, flow),
    initialFlowId: () => initialFlowId(ws),
    createFlow: () => createFlow(ws),
    renameWorkspaceFlow: (id: string, name: string) => renameWorkspaceFlow(ws, id, name),
    duplicateWorkspaceFlow: (id: string) => duplicateWorkspaceFlow(ws, id),
    deleteWorkspaceFlow: (id: string) => deleteWorkspaceFlow(ws, id),
    addImportedFlows: (flows: readonly Flow[], pins: readonly Pin[] = []) =>
      addImportedFlows(ws, flows, pins),
    savePendingEdit: () => savePendingEdit(ws),
    startAutosave: (delayMs?: number) => startAutosave(ws, delayMs),
  };
}

export type WorkspaceActions = ReturnType<typeof createWorkspaceActions>;

const context = serviceContext<WorkspaceActions>('the workspace actions');
export const WorkspaceActionsProvider = context.Provider;
export const useWorkspaceActions = context.use;

/** This tab's runtime, once the workspace has opened: an action taken sooner waits for it. */
function runtime(ws: Workspace): Promise<WorkbenchRuntime> {
  return ws.connection.ready();
}

const workspaceFlows = (ws: Workspace): Map<string, Flow> =>
  new Map(ws.runtimeState.getState().flows.map((f) => [f.id, f]));

/**
 * Opens a workspace flow on the canvas, and remembers it for the next visit. A flow just saved
 * is passed in: the workspace's list catches up with a save only on the next frame.
 */
async function openWorkspaceFlow(
  ws: Workspace,
  id: string,
  flow: Flow | undefined = workspaceFlows(ws).get(id),
): Promise<void> {
  if (!flow) return;
  const { meta, open, history } = ws.designer.getState();
  // The flow on the canvas already: opening it again would only wipe its undo history.
  if (open && meta.id === id) return;
  // An edit still waiting for its autosave belongs to the flow open now: save it before leaving.
  await savePendingEdit(ws);
  if (open && meta.id) ws.histories.set(meta.id, history);
  openFlow(ws.designer, flow);
  // Each flow keeps its undo history while the tab lives, however often another is opened.
  const kept = ws.histories.get(id);
  if (kept) ws.designer.setState({ history: kept });
  await (await runtime(ws)).setOpenFlow(id);
}

/** The example a first visit opens on: the daily loop shows most of what wakeflow does. */
export const FIRST_FLOW = 'nightly-refresh';

/** The flow to open at start: the one open last time, else the daily loop, else the first. */
async function initialFlowId(ws: Workspace): Promise<string | undefined> {
  const last = await (await runtime(ws)).openFlow();
  const flows = workspaceFlows(ws);
  if (typeof last === 'string' && flows.has(last)) return last;
  if (flows.has(FIRST_FLOW)) return FIRST_FLOW;
  return ws.runtimeState.getState().flows[0]?.id;
}

/** A new flow with a start and an end, saved and opened. */
async function createFlow(ws: Workspace): Promise<void> {
  const id = freshId('flow-', new Set(workspaceFlows(ws).keys()));
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
  await (await runtime(ws)).saveFlow(flow);
  await openWorkspaceFlow(ws, id, flow);
}

async function renameWorkspaceFlow(ws: Workspace, id: string, name: string): Promise<void> {
  const flow =
    id === ws.designer.getState().meta.id ? currentFlow(ws.designer) : workspaceFlows(ws).get(id);
  if (!flow) return;
  // Renaming the open flow is an edit like any other: it can be undone, and autosave saves it.
  if (id === ws.designer.getState().meta.id) return renameFlow(ws.designer, name);
  await (await runtime(ws)).saveFlow({ ...flow, name });
}

async function duplicateWorkspaceFlow(ws: Workspace, id: string): Promise<void> {
  const flow = workspaceFlows(ws).get(id);
  if (!flow) return;
  const copyId = freshId(`${id}-copy-`, new Set(workspaceFlows(ws).keys()));
  const copy = { ...structuredClone(flow), id: copyId, name: `${flow.name ?? flow.id} (copy)` };
  await (await runtime(ws)).saveFlow(copy);
  await openWorkspaceFlow(ws, copyId, copy);
}

async function deleteWorkspaceFlow(ws: Workspace, id: string): Promise<void> {
  const deletingOpen = ws.designer.getState().meta.id === id;
  // Closed first, so that a pending autosave cannot bring the deleted flow back.
  if (deletingOpen) ws.designer.setState({ open: false });
  else await savePendingEdit(ws);
  await (await runtime(ws)).deleteFlow(id);
  if (deletingOpen) {
    const next = ws.runtimeState.getState().flows.find((f) => f.id !== id);
    if (next) await openWorkspaceFlow(ws, next.id);
    else ws.designer.setState({ open: false, nodes: [], edges: [] });
  }
}

/**
 * Saves imported flows (already given fresh ids), opens the first, and restores their pins (docs/format.md#pinned-answers). The pins go
 * first: if the workspace cannot keep them (too many), nothing is saved and the reason returned.
 */
async function addImportedFlows(
  ws: Workspace,
  flows: readonly Flow[],
  pins: readonly Pin[],
): Promise<string | undefined> {
  const rt = await runtime(ws);
  const restored = await rt.restorePins([...pins]);
  if (!restored.ok) return restored.error;
  for (const f of flows) await rt.saveFlow(f);
  if (flows[0]) await openWorkspaceFlow(ws, flows[0].id, flows[0]);
  return undefined;
}

/**
 * Saves the designer's last edit now rather than a moment later. The inspector's controls call it
 * first, so that a process never wakes on an older flow than the one on the canvas.
 */
function savePendingEdit(ws: Workspace): Promise<void> {
  return ws.savePending();
}

/**
 * Saves the open flow on every change, a moment after the last one, so that nothing a user drew
 * is lost on a reload. Selection and hover are not changes.
 */
function startAutosave(ws: Workspace, delayMs = 250): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending = false;
  let last = ws.designer.getState();
  const unsubscribe = ws.designer.subscribe((now) => {
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
    if (!ws.designer.getState().open) return;
    await (await runtime(ws)).saveFlow(currentFlow(ws.designer));
  };
  ws.savePending = () => (pending ? save() : Promise.resolve());
  const flushNow = () => void save();
  window.addEventListener('pagehide', flushNow);
  return () => {
    flushNow();
    ws.savePending = async () => {};
    unsubscribe();
    window.removeEventListener('pagehide', flushNow);
  };
}

type DesignerSnapshot = ReturnType<DesignerStore['getState']>;

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

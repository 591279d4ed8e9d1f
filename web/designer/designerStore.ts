import {
  applyEdgeChanges,
  applyNodeChanges,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import { useMemo } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Flow, FlowEdge, FlowNode } from '../../shared/schema.ts';
import { analyzeLoops } from '../../shared/loops.ts';
import type { Problem } from '../../shared/validateFlow.ts';
import type { CanvasEdge, CanvasNode } from './canvasTypes.ts';
import { fromCanvas, toCanvas, toCanvasEdge, toCanvasNode, type FlowMeta } from './flowCanvas.ts';
import { emptyHistory, record, redo, undo, type History } from './history.ts';
import { freshId, ID_PREFIX } from './newIds.ts';
import { newNodeOf } from './newNode.ts';
import type { PaletteEntry } from './paletteEntries.ts';
import { boundsOf, freeSpot, NEW_NODE_SIZE } from './placement.ts';
import { storeContext } from '../state/storeContext.ts';

/** One state of the drawing: what undo and redo move between. */
export interface Drawing {
  meta: FlowMeta;
  nodes: CanvasNode[];
  edges: CanvasEdge[];
}

export interface DesignerState extends Drawing {
  /** Set when a flow is open. */
  open: boolean;
  history: History<Drawing>;
  /** The drawing before a drag began, recorded as one edit when the drag ends. */
  dragStart: Drawing | undefined;
  /** What validation found in the open flow, kept apart from the drawing (undo skips it). */
  problems: Problem[];
  /** Whether `problems` are the open flow's: false from opening it until validation has run. */
  checked: boolean;
  /** The loops' closing edges by id, found with the problems; the canvas draws them as loops. */
  closing: ReadonlyMap<string, ClosingEdge>;
}

/** A closing edge (docs/format.md#loops-and-generations): the loop head it leads back to and the nodes it spans. */
export interface ClosingEdge {
  head: string;
  spans: readonly string[];
  /** How far out it is drawn: nested loops and several closing edges of one loop go lower. */
  depth: number;
}

/** The designer's store, and the typing session it is in (not state: nothing renders on it). */
export type DesignerStore = StoreApi<DesignerState> & {
  /** The field being typed into, and the last one typed into: one step of history between. */
  typing: { key: string | undefined; last: string | undefined };
};

export const createDesignerStore = (): DesignerStore =>
  Object.assign(
    createStore<DesignerState>()(() => ({
      open: false,
      meta: { format: 'flow/1', id: '' },
      nodes: [],
      edges: [],
      history: emptyHistory(),
      dragStart: undefined,
      problems: [],
      checked: false,
      closing: new Map(),
    })),
    { typing: { key: undefined, last: undefined } },
  );

const context = storeContext<DesignerState>('the designer store');
export const DesignerProvider = context.Provider;
export const useDesigner = context.useSlice;
/** The designer's store, to read once or to change (its actions take it). */
export const useDesignerStore = (): DesignerStore => context.useStoreApi() as DesignerStore;

const drawing = (s: Drawing): Drawing => ({ meta: s.meta, nodes: s.nodes, edges: s.edges });

/** The open flow as `flow/1`. */
export function currentFlow(store: DesignerStore): Flow {
  const s = store.getState();
  return fromCanvas(s.meta, s.nodes, s.edges);
}

/** Opens a flow, with a fresh history. */
export function openFlow(store: DesignerStore, flow: Flow): void {
  store.setState({
    ...toCanvas(flow),
    open: true,
    history: emptyHistory(),
    dragStart: undefined,
    problems: [],
    checked: false,
    closing: new Map(),
  });
}

/**
 * Runs edits made while typing into a field (`key` names it): each keystroke is applied at once,
 * so validation sees it, but one typing session in one field is one step of history.
 */
export function typedInto(store: DesignerStore, key: string, run: () => void): void {
  store.typing.key = key;
  try {
    run();
  } finally {
    store.typing.key = undefined;
  }
}

/** Ends a typing session (the field lost focus): the next keystroke begins a new step. */
export function endTyping(store: DesignerStore): void {
  store.typing.last = undefined;
}

/** Applies an edit as one step of history (or as part of the typing session it continues). */
export function edit(store: DesignerStore, change: (d: Drawing) => Partial<Drawing>): void {
  const { typing } = store;
  store.setState((s) => {
    const continues =
      typing.key !== undefined && typing.key === typing.last && s.history.past.length > 0;
    typing.last = typing.key;
    return { ...change(s), history: continues ? s.history : record(s.history, drawing(s)) };
  });
}

export function undoEdit(store: DesignerStore): void {
  store.typing.last = undefined;
  store.setState((s) => {
    const r = undo(s.history, drawing(s));
    return r ? { ...r.state, history: r.history } : {};
  });
}

export function redoEdit(store: DesignerStore): void {
  store.typing.last = undefined;
  store.setState((s) => {
    const r = redo(s.history, drawing(s));
    return r ? { ...r.state, history: r.history } : {};
  });
}

/** React Flow's node changes: selection and sizes are not edits; moves are, once per drag. */
export function onNodesChange(store: DesignerStore, changes: NodeChange<CanvasNode>[]): void {
  store.setState((s) => {
    const nodes = applyNodeChanges(changes, s.nodes);
    const removing = changes.some((c) => c.type === 'remove');
    const dragging = changes.some((c) => c.type === 'position' && c.dragging === true);
    const dropped = changes.some((c) => c.type === 'position' && c.dragging === false);
    if (removing) return { ...removeDangling(s, nodes), history: record(s.history, drawing(s)) };
    if (dragging) return { nodes, dragStart: s.dragStart ?? drawing(s) };
    if (dropped && s.dragStart)
      return { nodes, dragStart: undefined, history: record(s.history, s.dragStart) };
    return { nodes };
  });
}

export function onEdgesChange(store: DesignerStore, changes: EdgeChange<CanvasEdge>[]): void {
  store.setState((s) => {
    const edges = applyEdgeChanges(changes, s.edges);
    if (changes.some((c) => c.type === 'remove'))
      return {
        edges,
        nodes: joinsInStep(s.nodes, s.edges, edges),
        history: record(s.history, drawing(s)),
      };
    return { edges };
  });
}

/**
 * A join's `depends` kept in step with the edges drawn into it: a node that comes to lead into a
 * join is added to what it waits for, one that no longer does is taken out. Names the designer
 * ticked without an edge stay, and so does any other node's `depends`.
 */
export function joinsInStep(
  nodes: CanvasNode[],
  before: readonly CanvasEdge[],
  after: readonly CanvasEdge[],
): CanvasNode[] {
  const into = (edges: readonly CanvasEdge[], id: string) =>
    new Set(edges.filter((e) => e.target === id).map((e) => e.source));
  let changed = false;
  const next = nodes.map((n) => {
    const node = n.data.node;
    if (node.kind !== 'join') return n;
    const was = into(before, n.id);
    const now = into(after, n.id);
    const depends = node.depends ?? [];
    const kept = depends.filter((d) => now.has(d) || !was.has(d));
    const added = [...now].filter((d) => !was.has(d) && !kept.includes(d) && d !== n.id);
    if (added.length === 0 && kept.length === depends.length) return n;
    changed = true;
    return { ...n, data: { ...n.data, node: { ...node, depends: [...kept, ...added] } } };
  });
  return changed ? next : nodes;
}

/** Removing nodes removes their edges too, and their names from every `depends`. */
function removeDangling(s: Drawing, nodes: CanvasNode[]): Partial<Drawing> {
  const ids = new Set(nodes.map((n) => n.id));
  return {
    nodes: nodes.map((n) => {
      const depends = n.data.node.depends;
      if (!depends || depends.every((d) => ids.has(d))) return n;
      return {
        ...n,
        data: { ...n.data, node: { ...n.data.node, depends: depends.filter((d) => ids.has(d)) } },
      };
    }),
    edges: s.edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
  };
}

/** Draws an edge; from a trigger's own handle, the edge names that trigger. */
export function connect(store: DesignerStore, connection: Connection): void {
  edit(store, (s) => connected(s, connection));
}

/**
 * Adds a node of a kind at a position with an edge into it from `from` (a node, and the handle
 * the edge leaves by), as one edit; the new node is selected. Returns its id.
 */
export function addConnectedNode(
  store: DesignerStore,
  kind: PaletteEntry,
  position: { x: number; y: number },
  from: { node: string; handle: string | null },
): string {
  let id = '';
  edit(store, (s) => {
    id = freshId(ID_PREFIX[kind] ?? kind, new Set(s.nodes.map((n) => n.id)));
    const made = newNodeOf(
      kind,
      id,
      s.nodes.map((n) => n.data.node),
    );
    const node = { ...toCanvasNode(made, position), selected: true };
    const nodes = [...s.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), node];
    return connected(
      { ...s, nodes },
      { source: from.node, sourceHandle: from.handle, target: id, targetHandle: null },
    );
  });
  return id;
}

function connected(s: Drawing, connection: Connection): Partial<Drawing> {
  const id = freshId('e', new Set(s.edges.map((e) => e.id)));
  const trigger = connection.sourceHandle?.startsWith('trigger:')
    ? connection.sourceHandle.slice(8)
    : undefined;
  const edge: FlowEdge = {
    id,
    from: connection.source,
    to: connection.target,
    ...(trigger ? { trigger } : {}),
  };
  const source = s.nodes.find((n) => n.id === edge.from)?.data.node;
  const edges = [...s.edges, toCanvasEdge(edge, source)];
  return { edges, nodes: joinsInStep(s.nodes, s.edges, edges) };
}

/** Deletes nodes (with their edges) and edges by id, as one edit. */
export function deleteItems(
  store: DesignerStore,
  nodeIds: readonly string[],
  edgeIds: readonly string[],
): void {
  if (nodeIds.length + edgeIds.length === 0) return;
  edit(store, (d) => {
    const edges = applyEdgeChanges(
      edgeIds.map((id) => ({ type: 'remove' as const, id })),
      d.edges,
    );
    const nodes = joinsInStep(
      applyNodeChanges(
        nodeIds.map((id) => ({ type: 'remove' as const, id })),
        d.nodes,
      ),
      d.edges,
      edges,
    );
    return removeDangling({ ...d, edges }, nodes);
  });
}

/** A node's box on the canvas: measured, or the size a new node is taken to have. */
export const rectOf = (n: CanvasNode) => ({
  ...n.position,
  width: n.measured?.width ?? NEW_NODE_SIZE.width,
  height: n.measured?.height ?? NEW_NODE_SIZE.height,
});

/**
 * Where a new node goes: in free space beside the selection, or right of the last node, or (in
 * an empty flow) at `fallback`.
 */
export function spotForNew(
  store: DesignerStore,
  fallback: { x: number; y: number },
): { x: number; y: number } {
  const nodes = store.getState().nodes;
  const near = boundsOf(nodes.filter((n) => n.selected).map(rectOf));
  return freeSpot(nodes.map(rectOf), near, NEW_NODE_SIZE, fallback);
}

/** Adds a node of a kind (or a Call: paletteEntries.ts) at a position and selects it; returns its id. */
export function addNode(
  store: DesignerStore,
  kind: PaletteEntry,
  position: { x: number; y: number },
): string {
  let id = '';
  edit(store, (s) => {
    id = freshId(ID_PREFIX[kind] ?? kind, new Set(s.nodes.map((n) => n.id)));
    const made = newNodeOf(
      kind,
      id,
      s.nodes.map((n) => n.data.node),
    );
    const node = { ...toCanvasNode(made, position), selected: true };
    return { nodes: [...s.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), node] };
  });
  return id;
}

/** Replaces one flow node's fields (not its id); only that canvas node changes. */
export function updateNode(store: DesignerStore, id: string, next: FlowNode): void {
  edit(store, (s) => ({
    nodes: s.nodes.map((n) =>
      n.id === id ? ({ ...n, type: next.kind, data: { ...n.data, node: next } } as CanvasNode) : n,
    ),
  }));
}

export function updateEdge(store: DesignerStore, id: string, next: FlowEdge): void {
  edit(store, (s) => ({
    edges: s.edges.map((e) =>
      e.id === id
        ? {
            ...toCanvasEdge(next, s.nodes.find((n) => n.id === next.from)?.data.node),
            selected: e.selected,
          }
        : e,
    ),
  }));
}

export function renameFlow(store: DesignerStore, name: string): void {
  edit(store, (s) => ({ meta: { ...s.meta, name } }));
}

/** Deletes the selected nodes (with their edges) and edges. */
export function deleteSelection(store: DesignerStore): void {
  const s = store.getState();
  deleteItems(
    store,
    s.nodes.filter((n) => n.selected).map((n) => n.id),
    s.edges.filter((e) => e.selected).map((e) => e.id),
  );
}

/**
 * Selects one node or one edge and nothing else (a problem clicked, an edge chosen from a
 * node's list); not an edit. Objects whose selection does not change are kept as they are.
 */
export function selectOnly(
  store: DesignerStore,
  target: { nodeId?: string; edgeId?: string },
): void {
  store.setState((s) => ({
    nodes: s.nodes.map((n) =>
      n.selected === (n.id === target.nodeId) ? n : { ...n, selected: n.id === target.nodeId },
    ),
    edges: s.edges.map((e) =>
      e.selected === (e.id === target.edgeId) ? e : { ...e, selected: e.id === target.edgeId },
    ),
  }));
}

/** Selects nothing (Escape on the canvas); not an edit. */
export function deselectAll(store: DesignerStore): void {
  store.setState((s) =>
    s.nodes.some((n) => n.selected) || s.edges.some((e) => e.selected)
      ? {
          nodes: s.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)),
          edges: s.edges.map((e) => (e.selected ? { ...e, selected: false } : e)),
        }
      : {},
  );
}

/** Replaces every node and edge in one edit (paste, duplicate, layout). */
export function replaceDrawing(
  store: DesignerStore,
  nodes: CanvasNode[],
  edges: CanvasEdge[],
): void {
  edit(store, () => ({ nodes, edges }));
}

export type { FlowMeta };

/** Lays the drawing out (elkjs, loaded on first use) as one edit. */
export async function autoLayout(store: DesignerStore): Promise<void> {
  const { layoutDrawing } = await import('./autoLayout.ts');
  const s = store.getState();
  const closing = analyzeLoops(fromCanvas(s.meta, s.nodes, s.edges)).closingEdges;
  const nodes = await layoutDrawing(s.nodes, s.edges, closing);
  edit(store, () => ({ nodes }));
}

/** Every action above, bound to one store: what a view calls. */
export function designerActions(store: DesignerStore) {
  return {
    currentFlow: () => currentFlow(store),
    openFlow: (flow: Flow) => openFlow(store, flow),
    typedInto: (key: string, run: () => void) => typedInto(store, key, run),
    endTyping: () => endTyping(store),
    edit: (change: (d: Drawing) => Partial<Drawing>) => edit(store, change),
    undoEdit: () => undoEdit(store),
    redoEdit: () => redoEdit(store),
    onNodesChange: (changes: NodeChange<CanvasNode>[]) => onNodesChange(store, changes),
    onEdgesChange: (changes: EdgeChange<CanvasEdge>[]) => onEdgesChange(store, changes),
    connect: (connection: Connection) => connect(store, connection),
    addConnectedNode: (
      kind: PaletteEntry,
      position: { x: number; y: number },
      from: { node: string; handle: string | null },
    ) => addConnectedNode(store, kind, position, from),
    deleteItems: (nodeIds: readonly string[], edgeIds: readonly string[]) =>
      deleteItems(store, nodeIds, edgeIds),
    spotForNew: (fallback: { x: number; y: number }) => spotForNew(store, fallback),
    addNode: (kind: PaletteEntry, position: { x: number; y: number }) =>
      addNode(store, kind, position),
    updateNode: (id: string, next: FlowNode) => updateNode(store, id, next),
    updateEdge: (id: string, next: FlowEdge) => updateEdge(store, id, next),
    renameFlow: (name: string) => renameFlow(store, name),
    deleteSelection: () => deleteSelection(store),
    replaceDrawing: (nodes: CanvasNode[], edges: CanvasEdge[]) =>
      replaceDrawing(store, nodes, edges),
    autoLayout: () => autoLayout(store),
  };
}

export type DesignerActions = ReturnType<typeof designerActions>;

/** The designer's actions bound to this workbench's store; the same object while it lives. */
export function useDesignerActions(): DesignerActions {
  const store = useDesignerStore();
  return useMemo(() => designerActions(store), [store]);
}

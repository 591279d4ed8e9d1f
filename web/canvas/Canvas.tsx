import {
  Background,
  Controls,
  MarkerType,
  ReactFlow,
  useReactFlow,
  useStoreApi,
  type NodeChange,
  type OnConnect,
  type OnConnectEnd,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent as ReactMouseEvent,
} from 'react';
import { NEW_NODE_SIZE, spotAfter } from '../designer/placement.ts';
import { ConnectPicker, type ConnectPickerProps } from './ConnectPicker.tsx';
import { KeyboardConnect, type ConnectFrom } from './nodes/SourceHandle.tsx';
import { missingNodes } from './missingNodes.ts';
import { nodeIdsOf } from './nodeIds.ts';
import { MissingNode } from './nodes/MissingNode.tsx';
import { useKeepInView } from './useKeepInView.ts';
import { quietSeparatorsWhileHeld } from './quietSeparators.ts';
import './canvas.css';
import { CanvasMinimap } from './CanvasMinimap.tsx';
import { withEstimatedHandles } from './estimatedHandles.ts';
import { VIRTUALIZE_ABOVE } from './openingView.ts';
import { useEdgesNearView } from './useEdgesNearView.ts';
import { edgeAt, isPlainEdge } from './plainEdges.ts';
import { routesOf } from './canvasGeometry.ts';
import { useHandler } from '../ui/useHandler.ts';
import { PlainEdgeLayer } from './PlainEdgeLayer.tsx';
import { takenEdges } from './EdgeToken.tsx';
import { useInspector } from '../inspector/inspectorState.ts';
import { useOpeningView } from './useOpeningView.ts';
import { usePositionInView } from './usePositionInView.ts';
import {
  rectOf,
  useDesigner,
  useDesignerActions,
  useDesignerStore,
} from '../designer/designerStore.ts';
import type { CanvasEdge, CanvasNode } from '../designer/canvasTypes.ts';
import { FlowChangesLegend } from './FlowChangesLegend.tsx';
import { KIND_DRAG_TYPE, kindFromDrag } from './kindDrag.ts';
import { edgeTypes, nodeTypes } from './nodeTypes.ts';
import { RemovedNode } from './nodes/RemovedNode.tsx';
import { REMOVED_PREFIX } from './removedItems.ts';
import { useFlowChanges } from './useFlowChanges.ts';
import { useTheme } from '../ui/theme.ts';

const GRID: [number, number] = [20, 20];
/** Arrowheads in the edges' own colour (canvas.css), which the theme's tokens may set. */
const EDGE_OPTIONS = {
  markerEnd: {
    type: MarkerType.ArrowClosed,
    color: 'var(--wf-edge, #5a6272)',
    width: 11,
    height: 11,
  },
};
/**
 * The flow's kinds, ghosts of removed nodes while a process's flow changed, and placeholders for
 * nodes that dangling edges name.
 */
const CANVAS_NODE_TYPES = { ...nodeTypes, removed: RemovedNode, missing: MissingNode };

/** The key that starts a connection from the focused node (the help lists it). */
export const CONNECT_KEY = 'c';

type Picker = Omit<ConnectPickerProps, 'onClose'>;

/** The canvas element of a node, which React Flow makes focusable. */
const nodeElement = (root: HTMLElement | null, id: string) =>
  root?.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`) ?? null;

/**
 * usePositionInView in a component of its own: what it reads changes with every reading of the
 * inspected process and every new nodes array, and the canvas need not render for it.
 */
const KeepPositionInView = memo(function KeepPositionInView({
  flowId,
  opened,
}: {
  flowId: string;
  opened: boolean;
}) {
  usePositionInView(flowId, opened);
  return null;
});

/** The canvas: the open flow's nodes and edges, drawn and edited with React Flow. */
export function Canvas() {
  const nodes = useDesigner((s) => s.nodes);
  const edges = useDesigner((s) => s.edges);
  const flowId = useDesigner((s) => s.meta.id);
  const designer = useDesignerStore();
  const { addNode, connect, onEdgesChange, onNodesChange } = useDesignerActions();
  const changed = useFlowChanges(flowId, nodes, edges);
  const missing = useMemo(() => missingNodes(nodes, edges, nodeIdsOf(nodes)), [nodes, edges]);
  const drawn = useMemo(() => {
    const all = missing.length > 0 ? [...changed.nodes, ...missing] : changed.nodes;
    // A large flow draws only what is in view: its nodes not drawn yet come with a guess at
    // their handles, so that React Flow does not draw them all to measure them.
    const large = all.length > VIRTUALIZE_ABOVE;
    return all === changed.nodes && !large
      ? changed
      : { ...changed, nodes: large ? all.map(withEstimatedHandles) : all };
  }, [changed, missing]);
  const large = drawn.nodes.length > VIRTUALIZE_ABOVE;
  // Edges drawn as their route and arrow alone: in a view with very many, one layer draws them.
  const closing = useDesigner((s) => s.closing);
  const takenLines = useInspector((s) => takenEdges(s, flowId));
  const plain = useMemo(() => {
    const taken = new Set(takenLines === '' ? [] : takenLines.split('\n'));
    return (e: Parameters<typeof isPlainEdge>[0]) => isPlainEdge(e, closing, taken);
  }, [closing, takenLines]);
  const { edges: edgesShown, layer } = useEdgesNearView(drawn.edges, drawn.nodes, large, plain);
  const { screenToFlowPosition, flowToScreenPosition } = useReactFlow();
  const keepInView = useKeepInView();
  const root = useRef<HTMLDivElement>(null);
  const [picker, setPicker] = useState<Picker | undefined>();
  const opened = useOpeningView(flowId);
  // The app's theme, chosen or the system's: the canvas follows it, not the system alone.
  const theme = useTheme();
  // A pan or a drag is the canvas's alone: the panels' separators do not follow its moves.
  useEffect(
    () => (root.current ? quietSeparatorsWhileHeld(root.current, document) : undefined),
    [],
  );

  // Ghosts and placeholders are not part of the flow: what React Flow reports of them is not an
  // edit. A node moved by the keyboard is kept in view, so it keeps its focus.
  const onFlowNodesChange = useCallback(
    (changes: NodeChange[]) => {
      const ids = nodeIdsOf(designer.getState().nodes);
      const ours = changes.filter(
        (c) => !('id' in c) || (!c.id.startsWith(REMOVED_PREFIX) && ids.has(c.id)),
      ) as NodeChange<CanvasNode>[];
      onNodesChange(ours);
      const focused = (document.activeElement as HTMLElement | null)?.dataset.id;
      for (const c of ours)
        if (c.type === 'position' && c.dragging !== true && c.id === focused)
          requestAnimationFrame(() => keepInView(c.id));
    },
    [keepInView, designer, onNodesChange],
  );

  const onConnect: OnConnect = useCallback((c) => connect(c), [connect]);

  // A click on an edge of the plain layer reaches the pane (the layer takes no pointer events):
  // the edge under it is selected as a click on an edge React Flow draws selects it (React Flow
  // then clears what it had selected, as it does after a click on an edge).
  const store = useStoreApi();
  const onPaneClick = useHandler((event: ReactMouseEvent) => {
    if (layer.length === 0) return;
    const routes = routesOf(store.getState());
    const id = edgeAt(
      screenToFlowPosition({ x: event.clientX, y: event.clientY }),
      layer.map((e) => e.id),
      (edge) => routes.get(edge)?.route.points,
    );
    if (id !== undefined) onEdgesChange([{ type: 'select', id, selected: true }]);
  });

  /** Opens the picker for a connection from a node, placed beside `screen` (client pixels). */
  const openPicker = useCallback(
    (
      from: ConnectFrom,
      at: { x: number; y: number },
      client: { x: number; y: number },
      existing: boolean,
    ) => {
      const box = root.current?.getBoundingClientRect();
      const x = Math.min(client.x - (box?.left ?? 0), (box?.width ?? 600) - 300);
      const y = Math.min(client.y - (box?.top ?? 0), (box?.height ?? 400) - 320);
      setPicker({ from, at, screen: { x: Math.max(8, x), y: Math.max(8, y) }, existing });
    },
    [],
  );

  // A connection dropped on empty canvas: pick what it connects to, a new node there.
  const onConnectEnd: OnConnectEnd = useCallback(
    (event, state) => {
      if (state.isValid || !state.fromNode || state.fromHandle?.type !== 'source') return;
      const point = 'changedTouches' in event ? event.changedTouches[0]! : event;
      const client = { x: point.clientX, y: point.clientY };
      const flowAt = screenToFlowPosition(client);
      const all = designer.getState().nodes;
      const source = all.find((n) => n.id === state.fromNode!.id);
      const dropped = { x: flowAt.x, y: flowAt.y - NEW_NODE_SIZE.height / 2 };
      openPicker(
        { node: state.fromNode.id, handle: state.fromHandle.id ?? null },
        // After its source in the flow's direction: where it was dropped, if that is.
        source ? spotAfter(all.map(rectOf), rectOf(source), dropped) : dropped,
        client,
        false,
      );
    },
    [screenToFlowPosition, openPicker, designer],
  );

  // Where the focus goes back to when a connection started from the keyboard is dismissed.
  const origin = useRef<HTMLElement | null>(null);

  /** The picker with the flow's nodes as targets, beside the node a connection leaves. */
  const connectFromKeyboard = useCallback(
    (from: ConnectFrom, focused: HTMLElement): boolean => {
      const all = designer.getState().nodes;
      const node = all.find((n) => n.id === from.node);
      if (!node || node.type === 'end') return false;
      const at = spotAfter(all.map(rectOf), rectOf(node));
      const rect = rectOf(node);
      const client = flowToScreenPosition({ x: rect.x + rect.width + 12, y: rect.y });
      origin.current = focused;
      openPicker(from, at, client, true);
      return true;
    },
    [flowToScreenPosition, openPicker, designer],
  );
  // Enter or Space on a source handle (SourceHandle) starts the same connection as the key.
  const connectFromHandle = useCallback(
    (from: ConnectFrom, handle: HTMLElement) => void connectFromKeyboard(from, handle),
    [connectFromKeyboard],
  );

  // From a focused node, or one of its source handles (then leaving by that handle's trigger),
  // the connect key opens the picker with the flow's nodes as targets.
  const onKeyDown = useCallback(
    (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== CONNECT_KEY || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement;
      const id = target.closest<HTMLElement>('.react-flow__node')?.dataset.id;
      if (id === undefined) return;
      const handle = target.closest<HTMLElement>('.react-flow__handle.source')?.dataset.handleid;
      if (connectFromKeyboard({ node: id, handle: handle || null }, target)) e.preventDefault();
    },
    [connectFromKeyboard],
  );

  const closePicker = useCallback(
    (target: string | undefined) => {
      const from = picker?.from.node;
      const back = origin.current;
      origin.current = null;
      setPicker(undefined);
      // Focus goes to the node connected to (so the next connection can start there), or back
      // to where the connection was started from.
      if (target === undefined && back?.isConnected) {
        requestAnimationFrame(() => back.focus());
        return;
      }
      const focus = target ?? from;
      if (focus === undefined) return;
      requestAnimationFrame(() => {
        keepInView(focus);
        requestAnimationFrame(() => nodeElement(root.current, focus)?.focus());
      });
    },
    [picker, keepInView],
  );
  const onDragOver = useCallback((e: DragEvent) => {
    if (!e.dataTransfer.types.includes(KIND_DRAG_TYPE)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
  }, []);
  const onDrop = useCallback(
    (e: DragEvent) => {
      const kind = kindFromDrag(e.dataTransfer);
      if (!kind) return;
      e.preventDefault();
      addNode(kind, screenToFlowPosition({ x: e.clientX, y: e.clientY }));
    },
    [screenToFlowPosition, addNode],
  );

  return (
    <div
      className="canvas"
      id="flow-canvas"
      ref={root}
      onDragOver={onDragOver}
      onDrop={onDrop}
      onKeyDown={onKeyDown}
    >
      {/* Keyed by flow, so that each flow opens fitted to the view. */}
      <KeyboardConnect.Provider value={connectFromHandle}>
        <ReactFlow
          // React Flow's credit, kept, in the corner nothing else uses: at the 12 px every text now
          // has, it lay over the minimap's toggle in the bottom-right one and took its clicks.
          attributionPosition="top-left"
          key={flowId}
          nodes={drawn.nodes}
          edges={edgesShown}
          nodeTypes={CANVAS_NODE_TYPES}
          edgeTypes={edgeTypes}
          onNodesChange={onFlowNodesChange}
          onEdgesChange={onEdgesChange}
          onConnect={onConnect}
          onConnectEnd={onConnectEnd}
          onPaneClick={onPaneClick}
          defaultEdgeOptions={EDGE_OPTIONS}
          colorMode={theme}
          snapToGrid
          snapGrid={GRID}
          // Delete is ours (useShortcuts): the focused item, or else the selection, never both.
          deleteKeyCode={null}
          multiSelectionKeyCode={['Shift', 'Meta', 'Control']}
          // A flow opens readable, so part of a larger one is off screen: drawing every node of a
          // small flow keeps it all reachable (by Tab, and for the picture); a large one draws
          // only what is in view, for speed, and is handed only the edges near the view.
          onlyRenderVisibleElements={large}
          aria-label="Flow canvas"
        >
          {/* The run view's process: its position stays in view beside its panels. */}
          <KeepPositionInView flowId={flowId} opened={opened} />
          <PlainEdgeLayer edges={layer as CanvasEdge[]} drawnByFlow={edgesShown} />
          <Background gap={GRID[0]} />
          <CanvasMinimap />
          <Controls aria-label="Zoom controls" />
          <FlowChangesLegend legend={drawn.legend} />
        </ReactFlow>
      </KeyboardConnect.Provider>
      {picker && <ConnectPicker {...picker} onClose={closePicker} />}
    </div>
  );
}

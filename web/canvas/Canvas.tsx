import {
  Background,
  Controls,
  MarkerType,
  ReactFlow,
  useReactFlow,
  type NodeChange,
  type OnConnect,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, type DragEvent } from 'react';
import './canvas.css';
import { CanvasMinimap } from './CanvasMinimap.tsx';
import { useOpeningView } from './useOpeningView.ts';
import {
  addNode,
  connect,
  onEdgesChange,
  onNodesChange,
  useDesigner,
} from '../designer/designerStore.ts';
import type { CanvasNode } from '../designer/canvasTypes.ts';
import { FlowChangesLegend } from './FlowChangesLegend.tsx';
import { KIND_DRAG_TYPE, kindFromDrag } from './kindDrag.ts';
import { edgeTypes, nodeTypes } from './nodeTypes.ts';
import { RemovedNode } from './nodes/RemovedNode.tsx';
import { REMOVED_PREFIX } from './removedItems.ts';
import { useFlowChanges } from './useFlowChanges.ts';

const GRID: [number, number] = [20, 20];
/** Flows with more nodes than this draw only what is in view. */
const VIRTUALIZE_ABOVE = 150;
/** Arrowheads in the edges' own colour (canvas.css), which the theme's tokens may set. */
const EDGE_OPTIONS = {
  markerEnd: {
    type: MarkerType.ArrowClosed,
    color: 'var(--wf-edge, #5a6272)',
    width: 11,
    height: 11,
  },
};
/** The flow's kinds, and ghosts of removed nodes while a process's flow changed. */
const CANVAS_NODE_TYPES = { ...nodeTypes, removed: RemovedNode };

/** Ghosts are not part of the flow: what React Flow reports of them is not an edit. */
function onFlowNodesChange(changes: NodeChange[]): void {
  onNodesChange(
    changes.filter(
      (c) => !('id' in c) || !c.id.startsWith(REMOVED_PREFIX),
    ) as NodeChange<CanvasNode>[],
  );
}

/** The canvas: the open flow's nodes and edges, drawn and edited with React Flow. */
export function Canvas() {
  const nodes = useDesigner((s) => s.nodes);
  const edges = useDesigner((s) => s.edges);
  const flowId = useDesigner((s) => s.meta.id);
  const drawn = useFlowChanges(flowId, nodes, edges);
  const { screenToFlowPosition } = useReactFlow();
  useOpeningView(flowId);

  const onConnect: OnConnect = useCallback((c) => connect(c), []);
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
    [screenToFlowPosition],
  );

  return (
    <div className="canvas" onDragOver={onDragOver} onDrop={onDrop}>
      {/* Keyed by flow, so that each flow opens fitted to the view. */}
      <ReactFlow
        key={flowId}
        nodes={drawn.nodes}
        edges={drawn.edges}
        nodeTypes={CANVAS_NODE_TYPES}
        edgeTypes={edgeTypes}
        onNodesChange={onFlowNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        defaultEdgeOptions={EDGE_OPTIONS}
        colorMode="system"
        snapToGrid
        snapGrid={GRID}
        minZoom={0.2}
        deleteKeyCode={['Delete', 'Backspace']}
        multiSelectionKeyCode={['Shift', 'Meta', 'Control']}
        // A flow opens readable, so part of a larger one is off screen: drawing every node of a
        // small flow keeps it all reachable (by Tab, and for the picture); a large one draws
        // only what is in view, for speed.
        onlyRenderVisibleElements={drawn.nodes.length > VIRTUALIZE_ABOVE}
        aria-label="Flow canvas"
      >
        <Background gap={GRID[0]} />
        <CanvasMinimap />
        <Controls aria-label="Zoom controls" />
        <FlowChangesLegend legend={drawn.legend} />
      </ReactFlow>
    </div>
  );
}

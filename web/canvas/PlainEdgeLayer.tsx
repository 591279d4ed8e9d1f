import { useStore, type ReactFlowState } from '@xyflow/react';
import { getEdgePosition, getMarkerId } from '@xyflow/system';
import { memo, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { CanvasEdge } from '../designer/canvasTypes.ts';
import { useDesigner, useDesignerStore } from '../designer/designerStore.ts';
import { boxesOf, fanOf, routesOf } from './canvasGeometry.ts';
import { keptRoute } from './edgeRoutes.ts';

/** One plain edge as drawn: its id and its path. */
interface PlainPath {
  id: string;
  d: string;
}

/** What a plain edge was last drawn from, so that one whose ends are as they were costs a compare. */
interface Kept {
  sourceNode: unknown;
  targetNode: unknown;
  fan: number;
  path: PlainPath;
}

/**
 * How many of the layer's edges are routed anew per frame: the rest keep the path they had, or
 * wait to be drawn, until the frames after. A split into 10,000 branches brings 10,000 edges into view at
 * once, and a join of 10,000 measured again moves the end of each; routed in one task, they held
 * the page past a frame's budget, and so did adding their 10,000 paths to the page at once.
 */
export const ROUTES_PER_FRAME = 2000;

/**
 * Which animation frame it is: the document timeline's time, the same for everything done
 * between two frames. Undefined where there is none (then each run has a whole budget).
 */
const frameOf = (): unknown =>
  typeof document !== 'undefined' ? (document.timeline?.currentTime ?? undefined) : undefined;

/** The element React Flow draws its edges in: the layer's edges go with them, under the nodes. */
const edgesElement = (s: ReactFlowState) => s.domNode?.querySelector('.react-flow__edges') ?? null;

/**
 * A large flow's plain edges (plainEdges.ts), drawn as React Flow draws a plain FlowEdge (the
 * same route, the same path class and arrow, among React Flow's edges, under the nodes) but by
 * one component with one subscription to React Flow's store, rather than by React Flow with
 * four per edge. Each is one path element. They are not Tab stops and the layer is hidden from
 * assistive technology: a view with more plain edges in it than LAYER_ABOVE is a picture of
 * them. A click on one selects it (the canvas finds it, edgeAt); selected, it is React Flow's.
 */
export const PlainEdgeLayer = memo(function PlainEdgeLayer({
  edges,
}: {
  edges: readonly CanvasEdge[];
}) {
  const designer = useDesignerStore();
  const allEdges = useDesigner((s) => s.edges);
  const container = useStore(edgesElement);
  const marker = useStore((s) => {
    const end = s.defaultEdgeOptions?.markerEnd;
    return end ? `url('#${getMarkerId(end, s.rfId)}')` : undefined;
  });
  const kept = useRef(new Map<string, Kept>());
  const drawn = useRef<{ paths: readonly PlainPath[]; waiting: number }>({ paths: [], waiting: 0 });
  // What this frame may still route: every run of the selector in it (one per change of React
  // Flow's store) draws on it, and the next frame has its own.
  const budget = useRef({ frame: undefined as unknown, left: ROUTES_PER_FRAME });
  // A frame after one that left edges waiting, the selector runs again (a new closure).
  const [frame, setFrame] = useState(0);
  // One selector for every edge of the layer: an edge whose ends are the nodes they were (React
  // Flow makes a node anew when it moves or is measured) and whose route holds for the boxes
  // now costs a few lookups; at most ROUTES_PER_FRAME are routed anew, the others keep the path
  // they had (or are not drawn yet) and wait. The list is the same array while every path is.
  const { paths, waiting } = useStore((s) => {
    const boxes = boxesOf(s, designer.getState().dragStart !== undefined);
    const routes = routesOf(s);
    const before = drawn.current.paths;
    const now = frameOf();
    if (now === undefined || now !== budget.current.frame)
      budget.current = { frame: now, left: ROUTES_PER_FRAME };
    const next: PlainPath[] = [];
    let waits = 0;
    let same = true;
    for (const e of edges) {
      const sourceNode = s.nodeLookup.get(e.source);
      const targetNode = s.nodeLookup.get(e.target);
      if (!sourceNode || !targetNode) continue;
      const fan = fanOf(allEdges, e.id);
      const was = kept.current.get(e.id);
      let path =
        was &&
        was.sourceNode === sourceNode &&
        was.targetNode === targetNode &&
        was.fan === fan &&
        routes.get(e.id)?.boxes === boxes
          ? was.path
          : undefined;
      if (!path) {
        const at = getEdgePosition({
          id: e.id,
          sourceNode,
          targetNode,
          sourceHandle: e.sourceHandle ?? null,
          targetHandle: e.targetHandle ?? null,
          connectionMode: s.connectionMode,
        });
        if (!at) continue;
        const ends = {
          source: { x: at.sourceX, y: at.sourceY },
          target: { x: at.targetX, y: at.targetY },
          fan,
        };
        const routed = routes.get(e.id)?.route;
        const route = keptRoute(
          routes,
          e.id,
          e.source,
          e.target,
          ends,
          boxes,
          budget.current.left > 0,
        );
        if (!route) {
          waits++;
          if (!was) continue;
          path = was.path;
        } else {
          if (route !== routed) budget.current.left--;
          path = was?.path.d === route.path ? was.path : { id: e.id, d: route.path };
          kept.current.set(e.id, { sourceNode, targetNode, fan, path });
        }
      }
      if (before[next.length] !== path) same = false;
      next.push(path);
    }
    if (same && next.length === before.length && waits === drawn.current.waiting)
      return drawn.current;
    return (drawn.current = {
      paths: same && next.length === before.length ? before : next,
      waiting: waits,
    });
  });
  useEffect(() => {
    if (waiting === 0) return;
    const next = requestAnimationFrame(() => setFrame((f) => f + 1));
    return () => cancelAnimationFrame(next);
  }, [paths, waiting, frame]);
  if (!container || paths.length === 0) return null;
  return createPortal(
    <svg className="wf-plain-edges" aria-hidden="true">
      {paths.map((p) => (
        <PlainEdge key={p.id} path={p} marker={marker} />
      ))}
    </svg>,
    container,
  );
});

/** One edge of the layer: the path BaseEdge draws for a plain FlowEdge, with its arrow. */
const PlainEdge = memo(function PlainEdge({
  path,
  marker,
}: {
  path: PlainPath;
  marker: string | undefined;
}) {
  return <path d={path.d} fill="none" className="react-flow__edge-path" markerEnd={marker} />;
});

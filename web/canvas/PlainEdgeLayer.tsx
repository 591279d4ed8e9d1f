import { useStore, type ReactFlowState } from '@xyflow/react';
import { getEdgePosition, getMarkerId } from '@xyflow/system';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { CanvasEdge } from '../designer/canvasTypes.ts';
import { useDesigner, useDesignerStore } from '../designer/designerStore.ts';
import { boxesOf, fanOf, routesOf } from './canvasGeometry.ts';
import { keptRoute, routeHolds } from './edgeRoutes.ts';
import { layerPaths, PATHS_ADDED_PER_FRAME, PATHS_REMOVED_PER_FRAME } from './layerPaths.ts';

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
 * How many of the layer's edges are placed anew per frame (their ends read again, their route
 * checked or found again): the rest keep the path they had, or wait to be drawn, until the
 * frames after. A split into 10,000 branches brings 10,000 edges into view at
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
  drawnByFlow,
}: {
  edges: readonly CanvasEdge[];
  /** The edges React Flow draws now: a path of one of them leaves the layer at once. */
  drawnByFlow: readonly { id: string }[];
}) {
  const designer = useDesignerStore();
  const allEdges = useDesigner((s) => s.edges);
  const container = useStore(edgesElement);
  const marker = useStore((s) => {
    const end = s.defaultEdgeOptions?.markerEnd;
    return end ? `url('#${getMarkerId(end, s.rfId)}')` : undefined;
  });
  const kept = useRef(new Map<string, Kept>());
  const drawn = useRef<{
    paths: readonly PlainPath[];
    waiting: number;
    /** What they were drawn from: React Flow's nodes array, and the edges. */
    from?: { nodes: unknown; edges: unknown; all: unknown };
  }>({ paths: [], waiting: 0 });
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
    // The same nodes array and edges, nothing waiting: nothing they are drawn from changed (a
    // pan, the selection, a node measured before the designer hands over its new array).
    const from = drawn.current.from;
    if (
      drawn.current.waiting === 0 &&
      from?.nodes === s.nodes &&
      from.edges === edges &&
      from.all === allEdges
    )
      return drawn.current;
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
      // Its ends the nodes they were: the path holds while the route does (for new boxes, a
      // look at what changed near what it asked about).
      let path =
        was &&
        was.sourceNode === sourceNode &&
        was.targetNode === targetNode &&
        was.fan === fan &&
        routeHolds(routes, e.id, boxes)
          ? was.path
          : undefined;
      if (!path && budget.current.left <= 0) {
        // Nothing left this frame: it keeps the path it had, or waits to be drawn.
        waits++;
        if (!was) continue;
        path = was.path;
      }
      if (!path) {
        budget.current.left--;
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
        const route = keptRoute(routes, e.id, e.source, e.target, ends, boxes);
        path = was?.path.d === route.path ? was.path : { id: e.id, d: route.path };
        kept.current.set(e.id, { sourceNode, targetNode, fan, path });
      }
      if (before[next.length] !== path) same = false;
      next.push(path);
    }
    const fromNow = { nodes: s.nodes, edges, all: allEdges };
    if (same && next.length === before.length && waits === drawn.current.waiting) {
      drawn.current.from = fromNow;
      return drawn.current;
    }
    return (drawn.current = {
      paths: same && next.length === before.length ? before : next,
      waiting: waits,
      from: fromNow,
    });
  });
  // What the page holds changes by a bounded number of paths a frame (layerPaths.ts): a path
  // that left the view's neighbourhood may stay a while, unless its edge is gone or React Flow
  // draws it now.
  const existing = useMemo(() => new Set(allEdges.map((e) => e.id)), [allEdges]);
  const byFlow = useMemo(() => new Set(drawnByFlow.map((e) => e.id)), [drawnByFlow]);
  const shown = useRef<readonly PlainPath[]>([]);
  const plan = useMemo(
    () =>
      layerPaths(
        shown.current,
        paths,
        (id) => existing.has(id) && !byFlow.has(id),
        PATHS_ADDED_PER_FRAME,
        PATHS_REMOVED_PER_FRAME,
      ),
    // `frame` asks again once a frame has passed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [paths, existing, byFlow, frame],
  );
  useEffect(() => {
    shown.current = plan.paths;
    if (waiting === 0 && plan.pending === 0) return;
    const next = requestAnimationFrame(() => setFrame((f) => f + 1));
    return () => cancelAnimationFrame(next);
  }, [plan, waiting]);
  if (!container || plan.paths.length === 0) return null;
  return createPortal(
    <svg className="wf-plain-edges" aria-hidden="true">
      {plan.paths.map((p) => (
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
  return (
    <path
      d={path.d}
      fill="none"
      className="react-flow__edge-path"
      markerEnd={marker}
      data-id={path.id}
    />
  );
});

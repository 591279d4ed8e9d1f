import {
  BaseEdge,
  EdgeLabelRenderer,
  useNodesData,
  useStore,
  useStoreApi,
  type EdgeProps,
  type ReactFlowState,
} from '@xyflow/react';
import { memo, useMemo, useRef } from 'react';
import type { FlowEdge as FlowEdgeRecord } from '../../shared/schema.ts';
import type { CanvasEdge, CanvasNode, FlowEdgeData } from '../designer/canvasTypes.ts';
import { useDesigner, useDesignerStore } from '../designer/designerStore.ts';
import { shownFlow, useInspector } from '../inspector/inspectorState.ts';
import { fanOffsets, labelSize, pickLabelPlace } from '../designer/edgeGeometry.ts';
import { keptRoute, type KeptRoutes } from './edgeRoutes.ts';
import { nodeBoxes, sameAnswers, type Asked, type NodeBoxes, type NodeRect } from './nodeBoxes.ts';
import { edgeAriaLabel, edgeLabelText, UNKNOWN_TRIGGER_ICON } from '../designer/edgeLabel.ts';
import { boxAround } from './rectGrid.ts';
import { countProblems, triggerKind, type TriggerKind } from '../designer/describeNode.ts';
import { ChangeBadge } from './nodes/ChangeBadge.tsx';
import { EdgeToken } from './EdgeToken.tsx';
import './nodes/nodes.css';
import { ProblemIcon, TriggerIcon } from '../ui/icons.tsx';

/** Each edge's place in its bundle of parallel edges, computed once per edges array. */
const fans = new WeakMap<readonly CanvasEdge[], Map<string, number>>();
function fanOf(edges: readonly CanvasEdge[], id: string): number {
  let map = fans.get(edges);
  if (!map) {
    map = fanOffsets(edges);
    fans.set(edges, map);
  }
  return map.get(id) ?? 0;
}

/** The boxes of the nodes drawn, for keeping edges and labels off them. */
function* nodeRects(lookup: ReactFlowState['nodeLookup']): Generator<NodeRect> {
  for (const n of lookup.values()) {
    const { x, y } = n.internals.positionAbsolute;
    yield { id: n.id, x, y, width: n.measured.width ?? 0, height: n.measured.height ?? 0 };
  }
}

/**
 * The nodes' boxes, built once per nodes array that React Flow holds (a pan keeps the array, a
 * drag or a measurement makes a new one), shared by every edge: each edge's selector runs on
 * every change of React Flow's store, on every frame of a pan. Each knows what changed since the
 * last of the same canvas (its `nodeLookup`, which React Flow keeps for the store's life), so
 * that a route far from a measured node is kept (edgeRoutes.ts).
 */
const boxesByNodes = new WeakMap<readonly unknown[], NodeBoxes>();
const latestBoxes = new WeakMap<object, NodeBoxes>();
function boxesOf(s: ReactFlowState, dragging: boolean): NodeBoxes {
  let boxes = boxesByNodes.get(s.nodes);
  if (!boxes) {
    const last = latestBoxes.get(s.nodeLookup);
    // A drag makes a new nodes array on every frame: routes and labels keep the boxes of before
    // the drag, for a frame's work not to grow with the flow, and are checked again on the drop.
    if (last && dragging) return last;
    boxes = nodeBoxes(nodeRects(s.nodeLookup), last);
    boxesByNodes.set(s.nodes, boxes);
    latestBoxes.set(s.nodeLookup, boxes);
  }
  return boxes;
}

/** The routes kept for one canvas, by edge id (edgeRoutes.ts). */
const routesByCanvas = new WeakMap<object, KeptRoutes>();
function routesOf(s: ReactFlowState): KeptRoutes {
  let kept = routesByCanvas.get(s.nodeLookup);
  if (!kept) routesByCanvas.set(s.nodeLookup, (kept = new Map()));
  return kept;
}

/** Closing edges' lowest spanned bottoms, kept per nodes array as the grid is. */
const bottoms = new WeakMap<readonly unknown[], Map<readonly string[], number>>();
function lowestBottom(s: ReactFlowState, ids: readonly string[]): number {
  let known = bottoms.get(s.nodes);
  if (!known) bottoms.set(s.nodes, (known = new Map()));
  const kept = known.get(ids);
  if (kept !== undefined) return kept;
  let bottom = -Infinity;
  for (const nodeId of ids) {
    const n = s.nodeLookup.get(nodeId);
    if (n) bottom = Math.max(bottom, n.internals.positionAbsolute.y + (n.measured.height ?? 0));
  }
  known.set(ids, bottom);
  return bottom;
}

/** Room kept around a label's places when asking the grid which nodes are near. */
const LABEL_REACH = 8;

/** How many passes of a loop the inspected process has begun after its first, in run view. */
function usePasses(head: string | undefined): number | undefined {
  const flowId = useDesigner((s) => s.meta.id);
  return useInspector((s) => {
    if (head === undefined || shownFlow(s) !== flowId || !s.inspection) return undefined;
    const prefix = s.inspection.levels
      .at(-1)!
      .path.map((p) => `${p}/`)
      .join('');
    return s.inspection.shown.snapshot.passes[`${prefix}${head}`] ?? 0;
  });
}

/**
 * An edge of a flow: a curve with its trigger and `when` as a label ("⏱ timeout · approved"),
 * drawn red while it has problems. A loop's closing edge runs round the nodes of its loop, dashed,
 * with its pass count in run view; parallel edges between one pair of nodes fan apart.
 */
export const FlowEdge = memo(function FlowEdge({
  id,
  source,
  target,
  sourceX,
  sourceY,
  targetX,
  targetY,
  data,
  selected,
  selectable,
  markerStart,
  markerEnd,
  style,
  interactionWidth,
}: EdgeProps<CanvasEdge>) {
  const designer = useDesignerStore();
  const fan = useDesigner((s) => fanOf(s.edges, id));
  const closing = useDesigner((s) => s.closing.get(id));
  const bottom = useStore((s) => (closing ? lowestBottom(s, closing.spans) : 0));
  const passes = usePasses(closing?.head);
  const ends = useMemo(
    () => ({
      source: { x: sourceX, y: sourceY },
      target: { x: targetX, y: targetY },
      fan,
      loop: closing && { bottom, depth: closing.depth },
    }),
    [sourceX, sourceY, targetX, targetY, fan, closing, bottom],
  );
  // The route round the nodes near it (edgeRouting.ts), found again only when its ends or its
  // loop changed, or a box it looked at: not on the frames of a pan, not for a node measured
  // far from it, and during a drag only for the edges of the nodes dragged.
  const route = useStore((s) =>
    keptRoute(
      routesOf(s),
      id,
      source,
      target,
      ends,
      boxesOf(s, designer.getState().dragStart !== undefined),
    ),
  );

  const edge: FlowEdgeRecord = data?.edge ?? { id, from: source, to: target };
  const problems = data?.problems ?? [];
  const change = data?.change;
  const when = edge.when !== undefined && edge.when.trim() !== '' ? edge.when : undefined;
  const hasLabel =
    edge.trigger !== undefined ||
    when !== undefined ||
    problems.length > 0 ||
    change !== undefined ||
    closing !== undefined;
  const text = edgeLabelText(edge, { loop: closing !== undefined, passes });
  const size = labelSize(
    [text, problems.length > 0 ? `⚠ ${problems.length}` : '', change ?? '']
      .filter(Boolean)
      .join(' · '),
  );
  // The selector runs on every change of React Flow's store, every frame of a pan among them:
  // the place is picked again only when the route or the label's size changed, or a box near it.
  const picked = useRef<
    { boxes: NodeBoxes; asked: Asked[]; labelAt: unknown; size: string; place: number } | undefined
  >(undefined);
  const place = useStore((s) => {
    if (!hasLabel || route.labelAt.length <= 1) return 0;
    const boxes = boxesOf(s, designer.getState().dragStart !== undefined);
    const kept = picked.current;
    const sized = `${size.width}x${size.height}`;
    if (kept && kept.labelAt === route.labelAt && kept.size === sized) {
      if (kept.boxes === boxes) return kept.place;
      if (sameAnswers(kept.asked, kept.boxes, boxes)) {
        kept.boxes = boxes;
        return kept.place;
      }
    }
    const box = boxAround(route.labelAt, Math.max(size.width, size.height) / 2 + LABEL_REACH);
    const chosen = pickLabelPlace(route.labelAt, size, boxes.grid.near(box));
    picked.current = {
      boxes,
      asked: [{ box }],
      labelAt: route.labelAt,
      size: sized,
      place: chosen,
    };
    return chosen;
  });
  const at = route.labelAt[place]!;
  const labelProps: EdgeLabelProps = {
    id,
    edge,
    when,
    problems,
    selected: selected === true,
    selectable: selectable !== false,
    change,
    loop: closing ? { head: closing.head, passes } : undefined,
    x: at.x,
    y: at.y,
  };
  return (
    <>
      <BaseEdge
        path={route.path}
        markerStart={markerStart}
        markerEnd={markerEnd}
        style={style}
        interactionWidth={interactionWidth}
        className={
          [
            closing ? 'wf-edge-path--loop' : '',
            problems.length > 0 ? 'wf-edge-path--problems' : '',
            change ? `wf-edge-path--${change}` : '',
          ]
            .filter(Boolean)
            .join(' ') || undefined
        }
      />
      <EdgeToken id={id} path={route.path} />
      {edge.trigger !== undefined ? (
        <TriggeredEdgeLabel {...labelProps} source={source} trigger={edge.trigger} />
      ) : (
        hasLabel && <EdgeLabel {...labelProps} />
      )}
    </>
  );
});

interface EdgeLabelProps {
  id: string;
  edge: FlowEdgeRecord;
  when: string | undefined;
  problems: readonly string[];
  selected: boolean;
  selectable: boolean;
  change: FlowEdgeData['change'];
  loop: { head: string; passes: number | undefined } | undefined;
  x: number;
  y: number;
  kind?: TriggerKind | undefined;
}

/**
 * The label of an edge from a trigger, which needs the trigger's kind for its icon: only these
 * edges read their source node, so other edges do not re-render when a node changes.
 */
function TriggeredEdgeLabel({
  source,
  trigger,
  ...props
}: EdgeLabelProps & { source: string; trigger: string }) {
  const sourceNode = useNodesData<CanvasNode>(source);
  const node = sourceNode?.data.node;
  const found = node?.kind === 'continue-after' ? node.on.find((t) => t.id === trigger) : undefined;
  return <EdgeLabel {...props} kind={found !== undefined ? triggerKind(found) : undefined} />;
}

function EdgeLabel({
  id,
  edge,
  when,
  problems,
  selected,
  selectable,
  change,
  loop,
  x,
  y,
  kind,
}: EdgeLabelProps) {
  const store = useStoreApi();
  // The label lives in a portal outside the edge's <g>, so a click on it would not reach React
  // Flow's own edge selection: select the edge here, as a click on its path would.
  const select = () => {
    if (selectable) store.getState().addSelectedEdges([id]);
  };
  const classes = [
    'wf-edge-label',
    'nodrag',
    'nopan',
    selected ? 'wf-edge-label--selected' : '',
    problems.length > 0 ? 'wf-edge-label--problems' : '',
    change ? `wf-edge-label--${change}` : '',
    loop ? 'wf-edge-label--loop' : '',
  ];
  const title = [
    edgeAriaLabel(edge, problems, kind, loop?.head),
    ...problems.map((p) => `Problem: ${p}`),
  ].join('\n');
  return (
    <EdgeLabelRenderer>
      <div
        className={classes.filter(Boolean).join(' ')}
        style={{ transform: `translate(-50%, -50%) translate(${x}px, ${y}px)` }}
        title={title}
        onClick={select}
      >
        <ChangeBadge change={change} />
        {loop && (
          <span className="wf-edge-label__loop">
            <span aria-hidden="true">↻</span> loop
            {loop.passes !== undefined && (
              <span className="wf-edge-label__passes">
                {' '}
                · {loop.passes} {loop.passes === 1 ? 'pass' : 'passes'}
              </span>
            )}
          </span>
        )}
        {loop && (edge.trigger !== undefined || when !== undefined) && (
          <span aria-hidden="true">·</span>
        )}
        {edge.trigger !== undefined && (
          <span className="wf-edge-label__trigger">
            <span aria-hidden="true">
              {kind !== undefined ? <TriggerIcon kind={kind} /> : UNKNOWN_TRIGGER_ICON}{' '}
            </span>
            <span className="wf-visually-hidden">on {kind ?? 'trigger'} </span>
            {edge.trigger}
          </span>
        )}
        {edge.trigger !== undefined && when !== undefined && <span aria-hidden="true">·</span>}
        {when !== undefined && (
          <span className="wf-edge-label__when">
            <span className="wf-visually-hidden">
              {edge.trigger !== undefined ? ', when ' : 'when '}
            </span>
            <code>{when}</code>
          </span>
        )}
        {problems.length > 0 && (
          <span className="wf-edge-label__problems">
            <span aria-hidden="true">
              <ProblemIcon /> {problems.length}
            </span>
            <span className="wf-visually-hidden">
              {countProblems(problems.length)}: {problems.join('; ')}
            </span>
          </span>
        )}
      </div>
    </EdgeLabelRenderer>
  );
}

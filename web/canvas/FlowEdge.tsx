import {
  BaseEdge,
  EdgeLabelRenderer,
  useNodesData,
  useStore,
  useStoreApi,
  type EdgeProps,
} from '@xyflow/react';
import { memo, useRef } from 'react';
import type { FlowEdge as FlowEdgeRecord } from '../../shared/schema.ts';
import type { CanvasEdge, CanvasNode, FlowEdgeData } from '../designer/canvasTypes.ts';
import { useDesigner, useDesignerStore } from '../designer/designerStore.ts';
import { shownFlow, useInspector } from '../inspector/inspectorState.ts';
import { labelSize, pickLabelPlace } from '../designer/edgeGeometry.ts';
import type { EdgeEnds, RoutedPath } from '../designer/edgeRouting.ts';
import type { ClosingEdge } from '../designer/designerStore.ts';
import { boxesOf, fanOf, lowestBottom, routesOf } from './canvasGeometry.ts';
import { keptRoute } from './edgeRoutes.ts';
import { sameAnswers, type Asked, type NodeBoxes } from './nodeBoxes.ts';
import { edgeAriaLabel, edgeLabelText, UNKNOWN_TRIGGER_ICON } from '../designer/edgeLabel.ts';
import { boxAround } from './rectGrid.ts';
import { countProblems, triggerKind, type TriggerKind } from '../designer/describeNode.ts';
import { ChangeBadge } from './nodes/ChangeBadge.tsx';
import { EdgeToken, takenBy } from './EdgeToken.tsx';
import './nodes/nodes.css';
import { ProblemIcon, TriggerIcon } from '../ui/icons.tsx';

/** Room kept around a label's places when asking the grid which nodes are near. */
const LABEL_REACH = 8;

/** What an edge reads of the designer's store, as one object while it is the same. */
interface EdgeDesign {
  /** Its place in its bundle of parallel edges. */
  fan: number;
  /** The loop it closes, if it is a loop's closing edge. */
  closing: ClosingEdge | undefined;
  flowId: string;
}

/**
 * An edge's reading of the designer's store, in one subscription: a split into 10,000 branches
 * draws 10,000 edges, and each subscription is a listener every change of the store calls.
 */
function useEdgeDesign(id: string): EdgeDesign {
  const kept = useRef<EdgeDesign | undefined>(undefined);
  return useDesigner((s) => {
    const fan = fanOf(s.edges, id);
    const closing = s.closing.get(id);
    const was = kept.current;
    if (was && was.fan === fan && was.closing === closing && was.flowId === s.meta.id) return was;
    return (kept.current = { fan, closing, flowId: s.meta.id });
  });
}

/**
 * An edge's reading of the run view, in one subscription, as one string: how many passes its
 * loop has begun after its first (for a closing edge, in run view) and where it is in the last
 * step's trail (EdgeToken's `taken`, '' when the step did not take it).
 */
function useEdgeRun(flowId: string, id: string, head: string | undefined) {
  const run = useInspector((s) => {
    const taken = takenBy(s, flowId, id);
    if (head === undefined || shownFlow(s) !== flowId || !s.inspection) return `|${taken}`;
    const prefix = s.inspection.levels
      .at(-1)!
      .path.map((p) => `${p}/`)
      .join('');
    return `${s.inspection.shown.snapshot.passes[`${prefix}${head}`] ?? 0}|${taken}`;
  });
  const bar = run.indexOf('|');
  const passes = bar === 0 ? undefined : Number(run.slice(0, bar));
  return { passes, taken: run.slice(bar + 1) };
}

/** Where an edge's route and label were last drawn, kept between runs of its selector. */
interface Drawn {
  ends: EdgeEnds;
  route: RoutedPath;
  place: number;
  /** The label's place was picked among `boxes`, asking about `asked`, for `labelAt` at `size`. */
  label?: { boxes: NodeBoxes; asked: Asked[]; labelAt: unknown; size: string };
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
  const { fan, closing, flowId } = useEdgeDesign(id);
  const { passes, taken } = useEdgeRun(flowId, id, closing?.head);

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

  // One selector of React Flow's store for the route and the label's place: it runs on every
  // change of the store, every frame of a pan among them, for every edge drawn. The route round
  // the nodes near it (edgeRouting.ts) is found again only when its ends or its loop changed, or
  // a box it looked at (edgeRoutes.ts): not on a pan, not for a node measured far from it, and
  // during a drag only for the edges of the nodes dragged. The label's place likewise.
  const drawn = useRef<Drawn | undefined>(undefined);
  const { route, place } = useStore((s) => {
    const boxes = boxesOf(s, designer.getState().dragStart !== undefined);
    const was = drawn.current;
    const bottom = closing ? lowestBottom(s, closing.spans) : 0;
    const ends: EdgeEnds =
      was &&
      was.ends.source.x === sourceX &&
      was.ends.source.y === sourceY &&
      was.ends.target.x === targetX &&
      was.ends.target.y === targetY &&
      was.ends.fan === fan &&
      was.ends.loop?.bottom === (closing && bottom) &&
      was.ends.loop?.depth === closing?.depth
        ? was.ends
        : {
            source: { x: sourceX, y: sourceY },
            target: { x: targetX, y: targetY },
            fan,
            loop: closing && { bottom, depth: closing.depth },
          };
    const route = keptRoute(routesOf(s), id, source, target, ends, boxes);
    let label = was?.label;
    let place = 0;
    if (hasLabel && route.labelAt.length > 1) {
      const sized = `${size.width}x${size.height}`;
      const same =
        label &&
        was!.route === route &&
        label.labelAt === route.labelAt &&
        label.size === sized &&
        (label.boxes === boxes || sameAnswers(label.asked, label.boxes, boxes));
      if (same) {
        label!.boxes = boxes;
        place = was!.place;
      } else {
        const box = boxAround(route.labelAt, Math.max(size.width, size.height) / 2 + LABEL_REACH);
        place = pickLabelPlace(route.labelAt, size, boxes.grid.near(box));
        label = { boxes, asked: [{ box }], labelAt: route.labelAt, size: sized };
      }
    }
    if (was && was.ends === ends && was.route === route && was.place === place) {
      was.label = label;
      return was;
    }
    return (drawn.current = { ends, route, place, label });
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
      <EdgeToken id={id} path={route.path} taken={taken} />
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

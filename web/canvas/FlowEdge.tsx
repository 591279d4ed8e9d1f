import {
  BaseEdge,
  EdgeLabelRenderer,
  getBezierPath,
  useNodesData,
  useStoreApi,
  type EdgeProps,
} from '@xyflow/react';
import { memo } from 'react';
import type { FlowEdge as FlowEdgeRecord } from '../../shared/schema.ts';
import type { CanvasEdge, CanvasNode, FlowEdgeData } from '../designer/canvasTypes.ts';
import { edgeAriaLabel, UNKNOWN_TRIGGER_ICON } from './edgeLabel.ts';
import { countProblems, triggerKind, type TriggerKind } from './nodes/describeNode.ts';
import { ChangeBadge } from './nodes/ChangeBadge.tsx';
import './nodes/nodes.css';
import { ProblemIcon, TriggerIcon } from '../ui/icons.tsx';

/**
 * An edge of a flow: a curve with its trigger and `when` as a label ("⏱ timeout · approved"),
 * drawn red while it has problems.
 */
export const FlowEdge = memo(function FlowEdge({
  id,
  source,
  target,
  sourceX,
  sourceY,
  targetX,
  targetY,
  sourcePosition,
  targetPosition,
  data,
  selected,
  selectable,
  markerStart,
  markerEnd,
  style,
  interactionWidth,
}: EdgeProps<CanvasEdge>) {
  const [path, labelX, labelY] = getBezierPath({
    sourceX,
    sourceY,
    sourcePosition,
    targetX,
    targetY,
    targetPosition,
  });
  const edge: FlowEdgeRecord = data?.edge ?? { id, from: source, to: target };
  const problems = data?.problems ?? [];
  const change = data?.change;
  const when = edge.when !== undefined && edge.when.trim() !== '' ? edge.when : undefined;
  const labelProps: EdgeLabelProps = {
    id,
    edge,
    when,
    problems,
    selected: selected === true,
    selectable: selectable !== false,
    change,
    x: labelX,
    y: labelY,
  };
  return (
    <>
      <BaseEdge
        path={path}
        markerStart={markerStart}
        markerEnd={markerEnd}
        style={style}
        interactionWidth={interactionWidth}
        className={
          [
            problems.length > 0 ? 'wf-edge-path--problems' : '',
            change ? `wf-edge-path--${change}` : '',
          ]
            .filter(Boolean)
            .join(' ') || undefined
        }
      />
      {edge.trigger !== undefined ? (
        <TriggeredEdgeLabel {...labelProps} source={source} trigger={edge.trigger} />
      ) : (
        (when !== undefined || problems.length > 0 || change !== undefined) && (
          <EdgeLabel {...labelProps} />
        )
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
  ];
  const title = [edgeAriaLabel(edge, problems, kind), ...problems.map((p) => `Problem: ${p}`)].join(
    '\n',
  );
  return (
    <EdgeLabelRenderer>
      <div
        className={classes.filter(Boolean).join(' ')}
        style={{ transform: `translate(-50%, -50%) translate(${x}px, ${y}px)` }}
        title={title}
        onClick={select}
      >
        <ChangeBadge change={change} />
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

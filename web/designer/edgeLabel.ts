import type { FlowEdge, FlowNode } from '../../shared/schema.ts';
import { countProblems, TRIGGER_ICONS, triggerKind, type TriggerKind } from './describeNode.ts';

/** Shown for an edge's trigger when the trigger is not found on its source node. */
export const UNKNOWN_TRIGGER_ICON = '↯';

/**
 * The kind of the trigger an edge is taken on, read from its source node; undefined for an edge
 * with no trigger, or one whose trigger is not on that node.
 */
export function edgeTriggerKind(
  edge: FlowEdge,
  source: FlowNode | undefined,
): TriggerKind | undefined {
  if (edge.trigger === undefined || source?.kind !== 'continue-after') return undefined;
  const trigger = source.on.find((t) => t.id === edge.trigger);
  return trigger ? triggerKind(trigger) : undefined;
}

/**
 * An edge's accessible name, e.g. "Edge from sleep to read, closes the loop at read, on timer
 * daily, when prices.read < 7, 1 problem". React Flow's own default is "Edge from a to b".
 */
export function edgeAriaLabel(
  edge: FlowEdge,
  problems: readonly string[],
  kind?: TriggerKind,
  loopHead?: string,
): string {
  let label = `Edge from ${edge.from} to ${edge.to}`;
  if (loopHead !== undefined) label += `, closes the loop at ${loopHead}`;
  if (edge.trigger !== undefined) label += `, on ${kind ?? 'trigger'} ${edge.trigger}`;
  if (edge.when !== undefined && edge.when.trim() !== '') label += `, when ${edge.when}`;
  if (problems.length > 0) label += `, ${countProblems(problems.length)}`;
  return label;
}

/**
 * The words an edge's label shows, as plain text ("⏱ decide · approval.approved"), for sizing it
 * before it is drawn and for the picture export. Empty for an edge with no label.
 */
export function edgeLabelText(
  edge: FlowEdge,
  options: { kind?: TriggerKind | undefined; loop?: boolean; passes?: number | undefined } = {},
): string {
  const when = edge.when !== undefined && edge.when.trim() !== '' ? edge.when : undefined;
  const loop = options.loop
    ? `↻ loop${options.passes !== undefined ? ` · ${options.passes} passes` : ''}`
    : undefined;
  const trigger =
    edge.trigger !== undefined
      ? `${options.kind !== undefined ? TRIGGER_ICONS[options.kind] : UNKNOWN_TRIGGER_ICON} ${edge.trigger}`
      : undefined;
  return [loop, trigger, when].filter((p) => p !== undefined).join(' · ');
}

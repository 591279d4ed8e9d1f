import type { FlowEdge } from '../../shared/schema.ts';
import { countProblems, type TriggerKind } from './nodes/describeNode.ts';

/** Shown for an edge's trigger when the trigger is not found on its source node. */
export const UNKNOWN_TRIGGER_ICON = '↯';

/**
 * An edge's accessible name, e.g. "Edge from sleep to read, on timer daily, when
 * prices.read < 7, 1 problem". React Flow's own default is "Edge from a to b".
 */
export function edgeAriaLabel(
  edge: FlowEdge,
  problems: readonly string[],
  kind?: TriggerKind,
): string {
  let label = `Edge from ${edge.from} to ${edge.to}`;
  if (edge.trigger !== undefined) label += `, on ${kind ?? 'trigger'} ${edge.trigger}`;
  if (edge.when !== undefined && edge.when.trim() !== '') label += `, when ${edge.when}`;
  if (problems.length > 0) label += `, ${countProblems(problems.length)}`;
  return label;
}

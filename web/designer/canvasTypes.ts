import type { Edge, Node } from '@xyflow/react';
import type { FlowEdge, FlowNode, NodeKind } from '../../shared/schema.ts';

/**
 * What a canvas node carries: the flow node itself (its position lives on the canvas node) and
 * the problems validation found on it. A change to one flow node makes a new object for that
 * canvas node only, so only that node re-renders (React Flow's performance guide).
 */
export interface FlowNodeData extends Record<string, unknown> {
  node: FlowNode;
  problems: readonly string[];
  /** What the designer should know that does not keep the flow from running ("never runs"). */
  warnings?: readonly string[];
  /** Set only on what the canvas draws for a process whose flow changed; never saved. */
  change?: 'added' | 'changed';
}

/** A canvas node of one kind: `Node<Data, 'work'>` and so on, a typed union over the kinds. */
export type CanvasNode = { [K in NodeKind]: Node<FlowNodeData, K> }[NodeKind];

export interface FlowEdgeData extends Record<string, unknown> {
  edge: FlowEdge;
  problems: readonly string[];
  /** Set only on what the canvas draws for a process whose flow changed; never saved. */
  change?: 'added' | 'changed' | 'removed';
}

export type CanvasEdge = Edge<FlowEdgeData, 'flow'>;

/** The handle id of a continue-after trigger's own source handle: an edge from it names the trigger. */
export const triggerHandleId = (triggerId: string) => `trigger:${triggerId}`;

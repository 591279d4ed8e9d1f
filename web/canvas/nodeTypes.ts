import type { EdgeTypes, NodeTypes } from '@xyflow/react';
import type { NodeKind } from '../../shared/schema.ts';
import { FlowEdge } from './FlowEdge.tsx';
import { ContinueAfterNode } from './nodes/ContinueAfterNode.tsx';
import { EndNode } from './nodes/EndNode.tsx';
import { FanoutNode } from './nodes/FanoutNode.tsx';
import { JoinNode } from './nodes/JoinNode.tsx';
import { StartNode } from './nodes/StartNode.tsx';
import { SubflowNode } from './nodes/SubflowNode.tsx';
import { WorkNode } from './nodes/WorkNode.tsx';

// Module scope: a new object on each render would make React Flow re-create every node.

/** One component per node kind; a canvas node's `type` is its flow node's `kind`. */
export const nodeTypes = {
  start: StartNode,
  work: WorkNode,
  fanout: FanoutNode,
  join: JoinNode,
  'continue-after': ContinueAfterNode,
  subflow: SubflowNode,
  end: EndNode,
} satisfies Record<NodeKind, NodeTypes[string]>;

/** Every edge of a flow is a `flow` edge (`CanvasEdge`). */
export const edgeTypes = { flow: FlowEdge } satisfies EdgeTypes;

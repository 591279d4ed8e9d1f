import { memo } from 'react';
import type { FlowNode } from '../../../shared/schema.ts';
import { KIND_NAMES } from '../../designer/kinds.ts';
import { CommonFields } from './CommonFields.tsx';
import { EndFields } from './EndFields.tsx';
import { SubflowFields, type WorkspaceFlow } from './SubflowFields.tsx';
import { TriggerFields } from './TriggerFields.tsx';
import { WorkFields } from './WorkFields.tsx';

export interface NodeFieldsProps {
  node: FlowNode;
  workspaceFlows: readonly WorkspaceFlow[];
}

/** Every field of one node: those all nodes have, then those of its kind. */
export const NodeFields = memo(function NodeFields({ node, workspaceFlows }: NodeFieldsProps) {
  return (
    <>
      <h2 className="prop-title">
        {KIND_NAMES[node.kind]} node <code>{node.id}</code>
      </h2>
      <CommonFields node={node} />
      {node.kind === 'work' && <WorkFields node={node} />}
      {node.kind === 'continue-after' && <TriggerFields node={node} />}
      {node.kind === 'subflow' && <SubflowFields node={node} workspaceFlows={workspaceFlows} />}
      {node.kind === 'end' && <EndFields node={node} />}
    </>
  );
});

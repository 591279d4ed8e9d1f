import { memo } from 'react';
import type { NodeOf } from '../../../shared/schema.ts';
import { useDesigner } from '../../designer/designerStore.ts';
import { Field } from './Field.tsx';
import { useStoreEdits } from './storeEdits.ts';

export interface WorkspaceFlow {
  id: string;
  name?: string;
}

interface SubflowFieldsProps {
  node: NodeOf<'subflow'>;
  workspaceFlows: readonly WorkspaceFlow[];
}

/** The flow a sub-flow node calls, chosen from the workspace's flows. */
export const SubflowFields = memo(function SubflowFields({
  node,
  workspaceFlows,
}: SubflowFieldsProps) {
  const { changeNode } = useStoreEdits();
  const openFlowId = useDesigner((s) => s.meta.id);
  const missing = node.flow !== '' && !workspaceFlows.some((f) => f.id === node.flow);
  const error =
    node.flow === ''
      ? 'Choose the flow this node calls.'
      : missing
        ? `Flow "${node.flow}" is not in the workspace.`
        : undefined;
  return (
    <Field
      label="Calls flow"
      error={error}
      hint="It runs nested inside this process, on the same context; this node completes when it does."
    >
      {(control) => (
        <select
          {...control}
          className="nodrag"
          value={node.flow}
          onChange={(e) => changeNode(node.id, 'subflow', (n) => ({ ...n, flow: e.target.value }))}
        >
          {node.flow === '' && <option value="">Choose a flow…</option>}
          {missing && <option value={node.flow}>{node.flow} (missing)</option>}
          {workspaceFlows.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name && f.name !== f.id ? `${f.name} (${f.id})` : f.id}
              {f.id === openFlowId ? ' — this flow' : ''}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
});

import type { Node, NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { FlowNodeData } from '../../designer/canvasTypes.ts';
import { summarizeAssignments } from '../../designer/describeNode.ts';
import { NodeShell } from './NodeShell.tsx';

/** How many assignments a work node shows before "+N more". */
const SHOWN = 3;

/** A work node with its first assignments, `path ← expression`, in the order written. */
export const WorkNode = memo(function WorkNode({
  data,
  selected,
  isConnectable,
}: NodeProps<Node<FlowNodeData, 'work'>>) {
  const { node } = data;
  const { shown, more } = summarizeAssignments(node.kind === 'work' ? node.set : undefined, SHOWN);
  return (
    <NodeShell data={data} selected={selected} isConnectable={isConnectable} target source="middle">
      {shown.length === 0 ? (
        <p className="wf-node__muted wf-node__note">no assignments yet</p>
      ) : (
        <ul className="wf-node__rows" aria-label="Assignments">
          {shown.map(({ path, expression }) => (
            <li key={path} className="wf-assignment" title={`${path} ← ${expression}`}>
              <code className="wf-assignment__path">{path}</code>
              <span aria-hidden="true"> ← </span>
              <span className="wf-visually-hidden"> becomes </span>
              <code className="wf-assignment__expression">{expression}</code>
            </li>
          ))}
          {more > 0 && <li className="wf-node__muted">+{more} more</li>}
        </ul>
      )}
    </NodeShell>
  );
});

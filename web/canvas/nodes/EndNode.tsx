import type { Node, NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { FlowNodeData } from '../../designer/canvasTypes.ts';
import { NodeShell } from './NodeShell.tsx';

/** Ends a branch, or with `terminate` the whole process: edges only come in. */
export const EndNode = memo(function EndNode({
  data,
  selected,
  isConnectable,
}: NodeProps<Node<FlowNodeData, 'end'>>) {
  const { node } = data;
  const terminate = node.kind === 'end' && node.terminate === true;
  return (
    <NodeShell data={data} selected={selected} isConnectable={isConnectable} target source="none">
      {terminate ? (
        <p className="wf-node__note">
          <span className="wf-terminate">terminate</span>{' '}
          <span className="wf-node__muted">ends the whole process</span>
        </p>
      ) : (
        <p className="wf-node__muted wf-node__note">ends this branch</p>
      )}
    </NodeShell>
  );
});

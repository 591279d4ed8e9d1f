import type { Node, NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { FlowNodeData } from '../../designer/canvasTypes.ts';
import { NodeShell } from './NodeShell.tsx';
import { useOpenSubflowNode } from '../../inspector/openInPlace.ts';

/** Runs another flow as a child process; its button opens that flow in the designer. */
export const SubflowNode = memo(function SubflowNode({
  data,
  selected,
  isConnectable,
}: NodeProps<Node<FlowNodeData, 'subflow'>>) {
  const { node } = data;
  const flow = node.kind === 'subflow' ? node.flow : '';
  const openSubflow = useOpenSubflowNode();
  return (
    <NodeShell data={data} selected={selected} isConnectable={isConnectable} target source="middle">
      {flow === '' ? (
        <p className="wf-node__muted wf-node__note">calls no flow yet</p>
      ) : (
        <>
          <p className="wf-node__note">
            <span className="wf-node__muted">calls</span> <code>{flow}</code>
          </p>
          {/* nodrag: a press on the button is not the start of a drag; nokey: Enter and Space
              press the button rather than select the node. */}
          <button
            type="button"
            className="wf-node__button nodrag nokey"
            onClick={() => openSubflow(flow, node.id)}
          >
            Open {flow}
          </button>
        </>
      )}
    </NodeShell>
  );
});

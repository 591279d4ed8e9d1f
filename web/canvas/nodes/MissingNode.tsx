import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import './nodes.css';

export interface MissingNodeData extends Record<string, unknown> {
  id: string;
}

export type MissingCanvasNode = Node<MissingNodeData, 'missing'>;

/**
 * A placeholder for a node an edge names but the flow does not have (an imported file's dangling
 * edge), so that the edge is drawn and can be picked; it is not part of the flow.
 */
export const MissingNode = memo(function MissingNode({ data }: NodeProps<MissingCanvasNode>) {
  return (
    <div
      className="wf-node wf-node--missing wf-node--problems"
      role="group"
      aria-label={`Missing node ${data.id}: an edge goes here, but the flow has no node with this id`}
    >
      <Handle type="target" position={Position.Left} className="wf-handle" isConnectable={false} />
      <Handle type="source" position={Position.Right} className="wf-handle" isConnectable={false} />
      <div className="wf-node__header">
        <span className="wf-node__kind">Missing</span>
      </div>
      <div className="wf-node__label wf-node__label--id">{data.id}</div>
      <p className="wf-node__note">no node has this id</p>
    </div>
  );
});

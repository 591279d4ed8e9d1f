import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { RemovedCanvasNode } from '../removedItems.ts';
import { ChangeBadge } from './ChangeBadge.tsx';
import { nodeLabel } from '../../designer/describeNode.ts';
import { KIND_NAMES } from '../../designer/kinds.ts';
import './nodes.css';
import { KindIcon } from '../../ui/icons.tsx';

/**
 * A node the process stood on or passed that is gone from the flow as it is now, drawn dashed
 * where it was in the version the process slept on. It says "removed" in words: the colour and
 * the dashes are never the only signal.
 */
export const RemovedNode = memo(function RemovedNode({ data }: NodeProps<RemovedCanvasNode>) {
  const { node } = data;
  const label = nodeLabel(node);
  return (
    <div className={`wf-node wf-node--${node.kind} wf-node--removed`}>
      {/* Handles only to draw removed edges to and from it; it cannot be connected. */}
      <Handle type="target" position={Position.Left} className="wf-handle" isConnectable={false} />
      <Handle type="source" position={Position.Right} className="wf-handle" isConnectable={false} />
      <div className="wf-node__header">
        <span className="wf-node__kind">
          <KindIcon kind={node.kind} size={12} /> {KIND_NAMES[node.kind]}
        </span>
        <ChangeBadge change="removed" />
      </div>
      <div className="wf-node__label">{label ?? node.id}</div>
      {label !== undefined && <div className="wf-node__id">{node.id}</div>}
    </div>
  );
});

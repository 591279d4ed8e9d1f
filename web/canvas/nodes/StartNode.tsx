import type { Node, NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { FlowNodeData } from '../../designer/canvasTypes.ts';
import { NodeShell } from './NodeShell.tsx';

/** Where a process begins: edges only leave it. */
export const StartNode = memo(function StartNode({
  data,
  selected,
  isConnectable,
}: NodeProps<Node<FlowNodeData, 'start'>>) {
  return (
    <NodeShell
      data={data}
      selected={selected}
      isConnectable={isConnectable}
      target={false}
      source="middle"
    />
  );
});

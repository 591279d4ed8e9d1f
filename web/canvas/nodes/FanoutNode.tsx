import type { Node, NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { FlowNodeData } from '../../designer/canvasTypes.ts';
import { NodeShell } from './NodeShell.tsx';

/** A visible split: it does nothing itself, every edge taken from it runs at once. */
export const FanoutNode = memo(function FanoutNode({
  data,
  selected,
  isConnectable,
}: NodeProps<Node<FlowNodeData, 'fanout'>>) {
  return (
    <NodeShell
      data={data}
      selected={selected}
      isConnectable={isConnectable}
      target
      source="middle"
    />
  );
});

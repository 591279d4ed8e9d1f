import type { Node, NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { FlowNodeData } from '../../designer/canvasTypes.ts';
import { NodeShell } from './NodeShell.tsx';
import { useChipsShown } from './chipsShown.ts';

/**
 * A barrier: it shows the nodes it waits for, one chip each (a very long list over a few
 * frames: useChipsShown).
 */
export const JoinNode = memo(function JoinNode({
  data,
  selected,
  isConnectable,
}: NodeProps<Node<FlowNodeData, 'join'>>) {
  const depends = data.node.depends ?? [];
  const shown = useChipsShown(depends.length);
  return (
    <NodeShell
      data={data}
      selected={selected}
      isConnectable={isConnectable}
      target
      source="middle"
      showDepends={false}
    >
      {depends.length === 0 ? (
        <p className="wf-node__muted wf-node__note">waits for no node yet</p>
      ) : (
        <div className="wf-node__note">
          <span className="wf-node__muted">waits for</span>
          <ul className="wf-chips" aria-label="Waits for">
            {(shown < depends.length ? depends.slice(0, shown) : depends).map((id, i) => (
              <li key={`${i}:${id}`} className="wf-chip">
                {id}
              </li>
            ))}
          </ul>
        </div>
      )}
    </NodeShell>
  );
});

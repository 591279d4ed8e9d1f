import { useUpdateNodeInternals, type Node, type NodeProps } from '@xyflow/react';
import { memo, useEffect, useRef } from 'react';
import { triggerHandleId, type FlowNodeData } from '../../designer/canvasTypes.ts';
import { describeTrigger } from '../../designer/describeNode.ts';
import { NodeShell } from './NodeShell.tsx';
import { SourceHandle } from './SourceHandle.tsx';
import { CallIcon, TriggerIcon } from '../../ui/icons.tsx';
import { usePinnedTriggers } from '../../calls/usePins.ts';
import { callNodeSummary } from '../../designer/callNode.ts';
import { CallLine } from './CallLine.tsx';
import { PinMarker } from './PinMarker.tsx';
import { WaitActions } from './WaitActions.tsx';

const CALL_BADGE = { icon: <CallIcon size={12} />, name: 'Call' };

/**
 * A durable stop with its triggers, one row each. Every row has its own source handle, so an
 * edge drawn from it is taken only when that trigger fires; the general handle by the header is
 * for edges taken whichever trigger fires.
 */
export const ContinueAfterNode = memo(function ContinueAfterNode({
  id,
  data,
  selected,
  isConnectable,
}: NodeProps<Node<FlowNodeData, 'continue-after'>>) {
  const { node } = data;
  const triggers = node.kind === 'continue-after' ? node.on : [];
  const pinned = usePinnedTriggers(id).split('\n');
  // One call and nothing racing it: drawn as a Call, its method and host up front.
  const asCall = callNodeSummary(node);

  // React Flow measures handles when a node mounts or resizes; renaming a trigger changes a
  // handle id without a resize, so tell it to measure again (but not on mount: 1,000 nodes).
  const updateNodeInternals = useUpdateNodeInternals();
  const handleKey = triggers.map((t) => t.id).join('\n');
  const measuredKey = useRef(handleKey);
  useEffect(() => {
    if (measuredKey.current === handleKey) return;
    measuredKey.current = handleKey;
    updateNodeInternals(id);
  }, [id, handleKey, updateNodeInternals]);

  return (
    <NodeShell
      data={data}
      selected={selected}
      isConnectable={isConnectable}
      target
      source="header"
      badge={asCall && CALL_BADGE}
    >
      {triggers.length === 0 ? (
        <p className="wf-node__muted wf-node__note">no triggers yet</p>
      ) : (
        <ul className="wf-node__rows wf-triggers" aria-label="Triggers">
          {triggers.map((trigger, i) => {
            const t = describeTrigger(trigger);
            return (
              <li
                key={`${i}:${trigger.id}`}
                className={`wf-trigger wf-trigger--${t.kind}${t.into !== undefined ? ' wf-trigger--into' : ''}`}
                title={t.words}
              >
                <span className="wf-trigger__icon" aria-hidden="true">
                  <TriggerIcon kind={t.kind} />
                </span>
                <span className="wf-visually-hidden">{t.kind} </span>
                {asCall ? (
                  <CallLine call={asCall} />
                ) : (
                  <span className="wf-trigger__text">{t.text}</span>
                )}
                {t.into !== undefined && (
                  <span className="wf-trigger__into">
                    <span aria-hidden="true">→ </span>
                    <span className="wf-visually-hidden">into </span>
                    {t.into}
                  </span>
                )}
                {trigger.call && pinned.includes(trigger.id) && <PinMarker />}
                <span className="wf-trigger__id">{trigger.id}</span>
                <SourceHandle
                  node={id}
                  handle={triggerHandleId(trigger.id)}
                  className="wf-handle wf-handle--trigger"
                  isConnectable={isConnectable}
                  title={`Draw an edge taken when ${trigger.id} fires`}
                  label={`Connect from trigger ${trigger.id} of ${id}`}
                />
              </li>
            );
          })}
        </ul>
      )}
      <WaitActions nodeId={id} triggers={triggers} />
    </NodeShell>
  );
});

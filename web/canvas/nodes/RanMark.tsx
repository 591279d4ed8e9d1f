import { memo } from 'react';
import { useDesigner } from '../../designer/designerStore.ts';
import { trailPrefix, useInspector } from '../../inspector/inspectorState.ts';

/**
 * A ring round a node that ran in the inspected process's last Step or Run, until the next one.
 * Each node reads only whether it ran (a boolean), so a step renders the nodes it marks or
 * unmarks, and a wake none.
 */
export const RanMark = memo(function RanMark({ nodeId }: { nodeId: string }) {
  const flowId = useDesigner((s) => s.meta.id);
  const ran = useInspector((s) => {
    const prefix = trailPrefix(s, flowId);
    return prefix !== undefined && s.trail!.ran.has(prefix + nodeId);
  });
  if (!ran) return null;
  // A note, so that screen readers announce it with the node; the ring itself is drawn by CSS.
  return <span role="note" className="wf-ran-mark" aria-label="Ran in the last step" />;
});

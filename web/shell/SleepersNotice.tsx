import { useDesigner } from '../designer/designerStore.ts';
import { useFlowCounts } from '../state/useFlowCounts.ts';
import { Hourglass } from '../ui/icons.tsx';

/**
 * Said over the canvas while processes sleep on the open flow: an edit that changes what runs
 * does not reach them silently; each asks, when it wakes, how to go on.
 */
export function SleepersNotice() {
  const flowId = useDesigner((s) => (s.open ? s.meta.id : undefined));
  const sleeping = useFlowCounts(flowId).byStatus.waiting ?? 0;
  if (!flowId || sleeping === 0) return null;
  return (
    <p className="sleepers-notice" role="note">
      <Hourglass size={14} aria-hidden="true" />
      {sleeping === 1
        ? '1 process sleeps on this flow; if you change what runs, it will ask what to do when it wakes.'
        : `${sleeping} processes sleep on this flow; if you change what runs, each will ask what to do when it wakes.`}
    </p>
  );
}

import { memo } from 'react';
import type { ChangeMark } from '../../inspector/canvasDiff.ts';

const WORDS: Record<ChangeMark | 'removed', string> = {
  added: 'added',
  changed: 'changed',
  removed: 'removed',
};

/**
 * "added", "changed" or "removed" since the process slept, in words beside the colour; renders
 * when its mark changes, not with the label or node around it.
 */
export const ChangeBadge = memo(function ChangeBadge({
  change,
}: {
  change: ChangeMark | 'removed' | undefined;
}) {
  if (change === undefined) return null;
  return (
    <span className={`wf-change wf-change--${change}`}>
      {WORDS[change]}
      <span className="wf-visually-hidden"> since the process slept</span>
    </span>
  );
});

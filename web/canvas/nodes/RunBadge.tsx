import { useDesigner } from '../../designer/designerStore.ts';
import { dueWords } from '../../inspector/formatTime.ts';
import { shownFlow, useInspector } from '../../inspector/inspectorState.ts';
import { useRuntimeState } from '../../state/runtimeState.ts';

const WORDS = {
  ready: 'ready',
  waiting: 'waiting',
  running: 'running',
  ran: 'ran',
  skipped: 'skipped',
  stopped: 'stopped',
  idle: '',
} as const;

/**
 * The inspected process's position on this node: ready, waiting (with its due time counting
 * down), running a sub-flow, or what it last did, with generation and visits. Each node reads
 * only its own entry, so a change elsewhere does not redraw it.
 */
export function RunBadge({ nodeId }: { nodeId: string }) {
  const flowId = useDesigner((s) => s.meta.id);
  const run = useInspector((s) =>
    shownFlow(s) === flowId ? s.inspection?.overlay.get(nodeId) : undefined,
  );
  // The countdown's text, not the clock: the badge renders when the text it draws changes.
  const countdown = useRuntimeState((s) =>
    run?.due != null ? dueWords(run.due - s.clock.now) : '',
  );
  if (!run || run.state === 'idle') return null;
  const due = run.due !== null ? `, ${countdown}` : '';
  const generation = run.generation ? `, generation ${run.generation}` : '';
  return (
    // A note, so that its name is announced: a paragraph's aria-label is not.
    <p
      role="note"
      className={`wf-run wf-run--${run.state}`}
      aria-label={`Process: ${WORDS[run.state]}${due}${generation}, visits ${run.visits}`}
    >
      {WORDS[run.state]}
      {generation && <span> · gen {run.generation}</span>} · ×{run.visits}
      {due && <span className="wf-run__due">{due.slice(2)}</span>}
    </p>
  );
}

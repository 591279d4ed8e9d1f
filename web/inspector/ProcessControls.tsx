import { useEffect } from 'react';
import { statusOf } from '../../runtime/engine/step.ts';
import { act } from './act.ts';
import { useInspector, type Inspection } from './inspectorState.ts';

/**
 * Step, Run, Stop (also Escape), Resume, Retry and Wake now, each enabled when the process's
 * status allows it; a control that cannot be done says why.
 */
export function ProcessControls({ inspection }: { inspection: Inspection }) {
  const { id, status } = inspection.record;
  const hasTimer = inspection.record.due !== null;
  // A stopped process with a node ready is paused between two steps: it can step, or run on.
  const canStep =
    status === 'running' ||
    (status === 'stopped' && statusOf(inspection.record.snapshot) === 'running');

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || (status !== 'running' && status !== 'waiting')) return;
      void act((r) => r.supervisor.stop(id));
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [id, status]);

  return (
    <div role="toolbar" aria-label="Process controls" className="process-controls">
      <button
        type="button"
        disabled={!canStep}
        onClick={() => void act((r) => r.supervisor.stepOnce(id))}
      >
        Step
      </button>
      <button
        type="button"
        disabled={!canStep}
        onClick={() =>
          void act((r) => (status === 'stopped' ? r.supervisor.resume(id) : r.supervisor.drive(id)))
        }
      >
        Run
      </button>
      <button
        type="button"
        aria-keyshortcuts="Escape"
        disabled={status !== 'running' && status !== 'waiting'}
        onClick={() => void act((r) => r.supervisor.stop(id))}
      >
        Stop
      </button>
      <button
        type="button"
        disabled={status !== 'stopped'}
        onClick={() => void act((r) => r.supervisor.resume(id))}
      >
        Resume
      </button>
      <button
        type="button"
        disabled={status !== 'failed'}
        onClick={() => void act((r) => r.supervisor.retry(id))}
      >
        Retry
      </button>
      <button
        type="button"
        disabled={status !== 'waiting' || !hasTimer}
        onClick={() => void act((r) => r.supervisor.wakeNow(id))}
      >
        Wake now
      </button>
    </div>
  );
}

/** The last control's refusal, read out when it appears. */
export function ControlError() {
  const error = useInspector((s) => s.error);
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {error}
    </p>
  );
}

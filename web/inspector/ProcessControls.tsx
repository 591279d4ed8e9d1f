import { memo, useCallback, useEffect, useId } from 'react';
import type { WorkbenchRuntime } from '../runtime/workbenchRuntime.ts';
import { statusOf } from '../../runtime/engine/waits.ts';
import { Button } from '../ui/Button.tsx';
import { useHandler } from '../ui/useHandler.ts';
import { Unavailable } from '../ui/Unavailable.tsx';
import { useCapability } from '../state/useCapability.ts';
import {
  AlarmClock as AlarmClockIcon,
  ListRestart,
  Play,
  RotateCcw,
  StepForward,
  StopIcon,
} from '../ui/icons.tsx';
import { useAct } from './act.ts';
import { setAnimateSteps, useAnimateStepsSetting, useReducedMotion } from './animateSteps.ts';
import { markTrail, newestSeq, useInspector, useInspectorStore } from './inspectorState.ts';
import { useInspectionOf } from './useInspectionOf.ts';

/**
 * Step, Run, Stop (also Ctrl+.), Resume, Retry and Wake now, each enabled when the process's
 * status allows it, each with a tooltip saying what it does; a control refused says why.
 */
export function ProcessControls() {
  const inspection = useInspectionOf(['record']);
  const { id, status } = inspection.record;
  const act = useAct();
  const hasTimer = inspection.record.due !== null;
  // A stopped process with a node ready is paused between two steps: it can step, or run on.
  const canStep =
    status === 'running' ||
    (status === 'stopped' && statusOf(inspection.record.snapshot) === 'running');

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Stopping is a deliberate act: a modifier and a key no reflex presses (Escape only
      // deselects, closes and cancels). docs/decisions.md, "Stop's shortcut".
      if (!isStopShortcut(e) || (status !== 'running' && status !== 'waiting')) return;
      e.preventDefault();
      void act((r) => r.processes.stop(id));
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [id, status, act]);

  // Step and Run mark what they did on the canvas: the journal entries written since the
  // newest one read before the control.
  const inspector = useInspectorStore();
  const marking = useCallback(
    async (control: (runtime: WorkbenchRuntime) => Promise<unknown>) => {
      const before = newestSeq(inspector);
      if (await act(control)) markTrail(inspector, id, before);
    },
    [act, inspector, id],
  );
  // Stable handlers: a wake that leaves the status as it was renders none of the buttons.
  const step = useHandler(() => void marking((r) => r.processes.stepOnce(id)));
  const run = useHandler(
    () =>
      void marking((r) => (status === 'stopped' ? r.processes.resume(id) : r.processes.drive(id))),
  );
  const stop = useHandler(() => void act((r) => r.processes.stop(id)));
  const resume = useHandler(() => void act((r) => r.processes.resume(id)));
  const retry = useHandler(() => void act((r) => r.processes.retry(id)));
  const wakeNow = useHandler(() => void act((r) => r.processes.wakeNow(id)));
  const stepping = useCapability('stepping');
  return (
    <div role="toolbar" aria-label="Process controls" className="process-controls">
      {stepping !== true ? (
        <Unavailable reason={stepping} />
      ) : (
        <>
          <Button
            size="sm"
            icon={<StepForward size={14} aria-hidden="true" />}
            disabled={!canStep}
            tooltip={
              canStep
                ? 'Run the next node, and pause again'
                : 'Only a paused or running process can step'
            }
            onClick={step}
          >
            Step
          </Button>
          <Button
            size="sm"
            icon={<Play size={14} aria-hidden="true" />}
            disabled={!canStep}
            tooltip="Run on from here until the process sleeps, ends or fails"
            onClick={run}
          >
            Run
          </Button>
        </>
      )}
      <Button
        size="sm"
        icon={<StopIcon size={14} aria-hidden="true" />}
        shortcut={STOP_SHORTCUT}
        disabled={status !== 'running' && status !== 'waiting'}
        tooltip="Stop the process where it is: it does not wake until Resume"
        onClick={stop}
      >
        Stop
      </Button>
      <Button
        size="sm"
        icon={<RotateCcw size={14} aria-hidden="true" />}
        disabled={status !== 'stopped'}
        tooltip="Resume a stopped process: it sleeps again where it stopped, or runs on if it was between steps"
        onClick={resume}
      >
        Resume
      </Button>
      <Button
        size="sm"
        icon={<ListRestart size={14} aria-hidden="true" />}
        disabled={status !== 'failed'}
        tooltip="Run the failed node again, on the context as it is now"
        onClick={retry}
      >
        Retry
      </Button>
      <Button
        size="sm"
        icon={<AlarmClockIcon size={14} aria-hidden="true" />}
        disabled={status !== 'waiting' || !hasTimer}
        tooltip="Fire the process's next timer now, without moving the clock"
        onClick={wakeNow}
      >
        Wake now
      </Button>
      <AnimateStepsToggle />
    </div>
  );
}

/**
 * The "Animate steps" setting: on, Step and Run send a token along each edge they took. Kept
 * across reloads; with the system asking for reduced motion no token runs, and the hint says so.
 * Memoized: it takes no props, so a wake that renders the controls does not render it.
 */
const AnimateStepsToggle = memo(function AnimateStepsToggle() {
  const on = useAnimateStepsSetting();
  const reduced = useReducedMotion();
  const hint = useId();
  return (
    <label className="animate-steps">
      <input
        type="checkbox"
        checked={on}
        aria-describedby={reduced ? hint : undefined}
        onChange={(e) => setAnimateSteps(e.target.checked)}
      />{' '}
      Animate steps
      {reduced && (
        <span id={hint} className="animate-steps__hint">
          (off: the system asks for reduced motion)
        </span>
      )}
    </label>
  );
});

/** Stop's shortcut, as the help and the button's tooltip show it. */
export const STOP_SHORTCUT = 'Ctrl+.';

function isStopShortcut(e: KeyboardEvent): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key === '.';
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

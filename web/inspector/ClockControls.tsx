import { useId, useState } from 'react';
import { addDuration, describeDuration, parseDuration } from '../../shared/duration.ts';
import { useAct } from './act.ts';
import { Button } from '../ui/Button.tsx';
import { Clock, FastForward, SkipForward } from '../ui/icons.tsx';
import { ClockTime } from './Countdown.tsx';
import { formatInstant } from './formatTime.ts';
import { useInspector } from './inspectorState.ts';
import { useRuntimeState, useRuntimeStateStore } from '../state/runtimeState.ts';
import { useCapability } from '../state/useCapability.ts';
import { Unavailable } from '../ui/Unavailable.tsx';
import { useAdvanceClock } from './useAdvanceClock.ts';

/**
 * The clock: real time, or virtual time moved forward by a duration or to the next due timer.
 * A long advance (a year of an hourly loop) shows how far it got and can be cancelled; each wake
 * awaits the database, so the page stays responsive meanwhile. A runtime whose clock is its own
 * (a server's) shows its time, and why it cannot be moved, in place of the controls.
 */
export function ClockControls() {
  const virtualClock = useCapability('virtualClock');
  // The mode only: the time itself is drawn by ClockTime, so this does not render every second.
  const mode = useRuntimeState((s) => s.clock.mode);
  const advancing = useInspector((s) => s.advancing);
  const act = useAct();
  const runtimeState = useRuntimeStateStore();
  // The clock's time as the page shows it: the one copy, which the runtime's events set.
  const now = () => runtimeState.getState().clock.now;
  const [text, setText] = useState('P1D');
  const ids = { duration: useId(), hint: useId() };
  const duration = parseDuration(text);

  const advance = useAdvanceClock();

  return (
    <fieldset className="clock" aria-label="Clock">
      <legend className="visually-hidden">Clock</legend>
      <span className="clock__time">
        <Clock size={14} aria-hidden="true" />
        <span aria-label="Clock time">
          <ClockTime />
        </span>
        <span className="hint">({mode === 'real' ? 'real time' : 'virtual time'})</span>
      </span>
      {virtualClock === true ? (
        <>
          <div className="clock-mode" role="group" aria-label="Clock mode">
            <Button
              size="sm"
              aria-pressed={mode === 'real'}
              tooltip="Time as it passes: timers fire when they are due"
              onClick={() =>
                void act(async (r) => {
                  await r.clock.useReal();
                  await r.wakeDue();
                })
              }
            >
              Real time
            </Button>
            <Button
              size="sm"
              aria-pressed={mode === 'virtual'}
              tooltip="Time that moves only when you advance it, for this tab"
              onClick={() => void act(async (r) => r.clock.useVirtual())}
            >
              Virtual time
            </Button>
          </div>
          <label htmlFor={ids.duration} className="visually-hidden">
            Advance by (ISO-8601)
          </label>
          <input
            id={ids.duration}
            className="wf-input clock__duration"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-describedby={ids.hint}
            aria-invalid={duration ? undefined : true}
            size={7}
            title="How far to advance, as an ISO-8601 duration: PT1H, P1D, P1Y"
          />
          <span id={ids.hint} className="hint clock__hint">
            {duration ? describeDuration(duration) : 'not a duration; try PT1H, P1D or P1Y'}
          </span>
          <Button
            size="sm"
            icon={<FastForward size={14} aria-hidden="true" />}
            disabled={!duration || advancing !== undefined}
            tooltip="Move the virtual clock forward by the duration, firing each timer due on the way"
            onClick={() => void advance(async () => addDuration(now(), duration!))}
          >
            Advance clock
          </Button>
          <Button
            size="sm"
            icon={<SkipForward size={14} aria-hidden="true" />}
            disabled={advancing !== undefined}
            tooltip="Move the virtual clock to the next timer of any process, and fire it"
            onClick={() => void advance((r) => r.clock.nextDue())}
          >
            To next due timer
          </Button>
          {advancing && (
            <div role="status" className="advancing">
              <progress
                aria-label="Advancing the clock"
                max={1}
                value={
                  (advancing.reached - advancing.from) /
                  Math.max(1, advancing.target - advancing.from)
                }
              />
              <span>
                {advancing.wakes} wakes, at {formatInstant(advancing.reached)}
              </span>
              <Button size="sm" onClick={advancing.cancel} tooltip="Stop advancing where it got to">
                Cancel
              </Button>
            </div>
          )}
        </>
      ) : (
        <Unavailable reason={virtualClock} />
      )}
    </fieldset>
  );
}

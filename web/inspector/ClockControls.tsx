import { useId, useState } from 'react';
import { addDuration, describeDuration, parseDuration } from '../../shared/duration.ts';
import type { Runtime } from '../runtime/createRuntime.ts';
import { act } from './act.ts';
import { formatInstant } from './formatTime.ts';
import { useInspector } from './inspectorState.ts';

/**
 * The clock: real time, or virtual time moved forward by a duration or to the next due timer.
 * A long advance (a year of an hourly loop) shows how far it got and can be cancelled; each wake
 * awaits the database, so the page stays responsive meanwhile.
 */
export function ClockControls() {
  const clock = useInspector((s) => s.clock);
  const advancing = useInspector((s) => s.advancing);
  const [text, setText] = useState('P1D');
  const ids = { duration: useId(), hint: useId() };
  const duration = parseDuration(text);

  const advance = (target: (runtime: Runtime) => Promise<number | null>) =>
    act(async (runtime) => {
      if (runtime.clock.mode === 'real') await runtime.clock.useVirtual();
      const to = await target(runtime);
      if (to === null)
        throw new Error(
          'no timer is due: every process is done, or waits for an event or a person',
        );
      const controller = new AbortController();
      const start = runtime.clock.now();
      useInspector.setState({
        advancing: {
          from: start,
          target: to,
          reached: start,
          wakes: 0,
          cancel: () => controller.abort(),
        },
      });
      try {
        await runtime.advanceTo(to, {
          signal: controller.signal,
          onProgress: (reached, wakes) =>
            useInspector.setState((s) =>
              s.advancing ? { advancing: { ...s.advancing, reached, wakes } } : {},
            ),
        });
      } finally {
        useInspector.setState({ advancing: undefined });
      }
    });

  return (
    <fieldset className="clock" aria-label="Clock">
      <legend>Clock</legend>
      <p>
        <span aria-label="Clock time">{formatInstant(clock.now)}</span> (
        {clock.mode === 'real' ? 'real time' : 'virtual time'})
      </p>
      <div className="clock-mode">
        <button
          type="button"
          aria-pressed={clock.mode === 'real'}
          onClick={() =>
            void act(async (r) => {
              await r.clock.useReal();
              await r.wakeDue();
            })
          }
        >
          Real time
        </button>
        <button
          type="button"
          aria-pressed={clock.mode === 'virtual'}
          onClick={() => void act(async (r) => r.clock.useVirtual())}
        >
          Virtual time
        </button>
      </div>
      <label htmlFor={ids.duration}>Advance by (ISO-8601)</label>
      <input
        id={ids.duration}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-describedby={ids.hint}
        aria-invalid={duration ? undefined : true}
        size={10}
      />
      <span id={ids.hint} className="hint">
        {duration ? describeDuration(duration) : 'not a duration; try PT1H, P1D or P1Y'}
      </span>
      <button
        type="button"
        disabled={!duration || advancing !== undefined}
        onClick={() => void advance(async (r) => addDuration(r.clock.now(), duration!))}
      >
        Advance clock
      </button>
      <button
        type="button"
        disabled={advancing !== undefined}
        onClick={() => void advance((r) => r.supervisor.nextDue())}
      >
        To next due timer
      </button>
      {advancing && (
        <div role="status" className="advancing">
          <progress
            aria-label="Advancing the clock"
            max={1}
            value={
              (advancing.reached - advancing.from) / Math.max(1, advancing.target - advancing.from)
            }
          />
          <span>
            {advancing.wakes} wakes, at {formatInstant(advancing.reached)}
          </span>
          <button type="button" onClick={advancing.cancel}>
            Cancel
          </button>
        </div>
      )}
    </fieldset>
  );
}

import { formatCountdown, formatDue, formatInstant } from './formatTime.ts';
import { useRuntimeState } from '../state/runtimeState.ts';

/**
 * A due time and how far off it is. The only parts of the inspector that follow the clock
 * are these and the clock's own text, and each selects the text it draws, not the time: a
 * countdown in minutes renders once a minute, not on every tick of the clock. `short`: the
 * countdown alone in its largest unit (a narrow column, whose cell's title tells the instant).
 */
export function Countdown({ due, short = false }: { due: number; short?: boolean }) {
  return (
    <>
      {useRuntimeState((s) =>
        short ? formatCountdown(due - s.clock.now, 1) : formatDue(due, s.clock.now),
      )}
    </>
  );
}

/** The clock's time, as the inspector shows instants. */
export function ClockTime() {
  return <>{useRuntimeState((s) => formatInstant(s.clock.now))}</>;
}

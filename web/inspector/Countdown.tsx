import { formatDue, formatInstant } from './formatTime.ts';
import { useRuntimeState } from '../state/runtimeState.ts';

/**
 * A due time and how far off it is. The only parts of the inspector that follow the clock
 * are these and the clock's own text, and each selects the text it draws, not the time: a
 * countdown in minutes renders once a minute, not on every tick of the clock.
 */
export function Countdown({ due }: { due: number }) {
  return <>{useRuntimeState((s) => formatDue(due, s.clock.now))}</>;
}

/** The clock's time, as the inspector shows instants. */
export function ClockTime() {
  return <>{useRuntimeState((s) => formatInstant(s.clock.now))}</>;
}

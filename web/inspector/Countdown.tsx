import { formatDue, formatInstant } from './formatTime.ts';
import { useInspector } from './inspectorState.ts';

/**
 * A due time and how far off it is. The only parts of the inspector that follow the clock
 * second by second are these and the clock's own text, so that idle, nothing else renders.
 */
export function Countdown({ due }: { due: number }) {
  const now = useInspector((s) => s.clock.now);
  return <>{formatDue(due, now)}</>;
}

/** The clock's time, as the inspector shows instants. */
export function ClockTime() {
  const now = useInspector((s) => s.clock.now);
  return <>{formatInstant(now)}</>;
}

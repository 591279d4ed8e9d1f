import { addDuration, parseDuration } from '../../shared/duration.ts';
import type { EngineEnv } from './run.ts';
import type { Snapshot } from './snapshot.ts';
import { waitsWithTriggers } from './step.ts';

/** A timer trigger of a wait and when it falls due. */
export interface DueTimer {
  seq: number;
  path: string;
  trigger: string;
  due: number;
}

// Durations parsed once per text: every committed step that sleeps computes its due time.
const durations = new Map<string, ReturnType<typeof parseDuration>>();

function durationOf(text: string): ReturnType<typeof parseDuration> {
  if (durations.has(text)) return durations.get(text);
  const parsed = parseDuration(text);
  // Texts come from flows, so the set is small; a bound keeps a hostile workspace from growing it.
  if (durations.size < 1000) durations.set(text, parsed);
  return parsed;
}

/** Every timer the process waits on, earliest first; among equal times, older waits first. */
export function timersOf(snapshot: Snapshot, flows: EngineEnv['flows']): DueTimer[] {
  const out: DueTimer[] = [];
  for (const wait of waitsWithTriggers(snapshot, flows)) {
    for (const t of wait.triggers) {
      const duration = t.timer === undefined ? undefined : durationOf(t.timer);
      if (!duration) continue;
      out.push({
        seq: wait.seq,
        path: wait.path,
        trigger: t.id,
        due: addDuration(wait.since, duration),
      });
    }
  }
  // A stable sort keeps listing order for ties: the first trigger listed wins (FORMAT.md §1).
  return out.sort((a, b) => a.due - b.due || a.seq - b.seq);
}

/**
 * The timer to fire now, if any: the earliest whose due time is at or before `now` (FORMAT.md,
 * Statuses of a process: a timer is due when its due time is not after the clock, so a `PT0S`
 * timer is due at once). The one rule of what is due, for every caller: a drive, a resume, a
 * retry, a resolution, `wakeDue`.
 */
export function dueTimer(
  snapshot: Snapshot,
  flows: EngineEnv['flows'],
  now: number,
): DueTimer | undefined {
  const first = timersOf(snapshot, flows)[0];
  return first && first.due <= now ? first : undefined;
}

/** When a wait's own earliest timer falls due, or null for a wait with no timer. */
export function waitDue(timers: readonly DueTimer[], seq: number): number | null {
  return timers.find((t) => t.seq === seq)?.due ?? null;
}

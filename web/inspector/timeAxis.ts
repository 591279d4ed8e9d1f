const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Steps a tick may fall on, so that labels read as round times. */
const STEPS = [
  SECOND,
  5 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  30 * DAY,
  365 * DAY,
];

export interface Tick {
  at: number;
  label: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A tick's label, as precise as its step needs (UTC, like every instant the inspector shows). */
function labelOf(at: number, step: number): string {
  const t = iso(at);
  if (step < MINUTE) return t.slice(11, 19);
  if (step < DAY) return at % DAY === 0 ? t.slice(5, 10) : t.slice(11, 16);
  return t.slice(0, 10);
}

/**
 * Ticks for a time axis from `start` to `end`: at most `most` of them, on the smallest round
 * step that keeps to that many, each labelled as precisely as the step needs.
 */
export function timeTicks(start: number, end: number, most: number): Tick[] {
  const span = Math.max(1, end - start);
  // Both ends may fall on a tick: `most` ticks have `most - 1` steps between them.
  const steps = Math.max(1, most - 1);
  const step =
    STEPS.find((s) => span / s <= steps) ?? Math.ceil(span / steps / (365 * DAY)) * 365 * DAY;
  const ticks: Tick[] = [];
  for (let at = Math.ceil(start / step) * step; at <= end; at += step)
    ticks.push({ at, label: labelOf(at, step) });
  return ticks;
}

/** How long after the entry before it an entry came, for the timeline: `+1 d 2 h`; '' when at once. */
export function gapLabel(ms: number): string {
  if (ms < SECOND) return '';
  const units: [number, string][] = [
    [DAY, 'd'],
    [HOUR, 'h'],
    [MINUTE, 'min'],
    [SECOND, 's'],
  ];
  const parts: string[] = [];
  let rest = Math.floor(ms / SECOND) * SECOND;
  for (const [size, unit] of units) {
    if (rest >= size && parts.length < 2) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    }
  }
  return `+${parts.join(' ')}`;
}

/** A due time with how far off it is: `2026-01-02 00:00:00 (in 23 h 59 min)`. */
export function formatDue(due: number, now: number): string {
  return `${formatInstant(due)} (${formatCountdown(due - now)})`;
}

export function formatInstant(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

/** `in 2 d 3 h`, `in 5 min`, `due now`, `3 h overdue`; in `units` units at most (`in 2 d`). */
export function formatCountdown(ms: number, units = 2): string {
  if (Math.abs(ms) < 1000) return 'due now';
  const parts: string[] = [];
  let rest = Math.floor(Math.abs(ms) / 1000);
  const sizes: [number, string][] = [
    [86_400, 'd'],
    [3600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  for (const [size, unit] of sizes) {
    if (rest >= size && parts.length < units) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    }
  }
  return ms > 0 ? `in ${parts.join(' ')}` : `${parts.join(' ')} overdue`;
}

/** A due time as a badge says it: `due in 2 d 3 h`, `due now`, `3 h overdue` (never "due due now"). */
export function dueWords(ms: number): string {
  const countdown = formatCountdown(ms);
  return countdown.startsWith('in ') ? `due ${countdown}` : countdown;
}

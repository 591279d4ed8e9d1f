/** An ISO-8601 duration (`P1DT2H`), as continue-after timers use them (docs/format.md#flows). */
export interface Duration {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

const PATTERN =
  /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Longest duration accepted, so that due times stay inside what a Date can hold. */
const MAX_YEARS = 10_000;

/** Parses `P1Y2M3W4DT5H6M7.5S`; undefined when the text is not such a duration. */
export function parseDuration(text: string): Duration | undefined {
  const m = PATTERN.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return undefined;
  const n = (i: number) => (m[i] === undefined ? 0 : Number(m[i]));
  const d: Duration = {
    years: n(1),
    months: n(2),
    weeks: n(3),
    days: n(4),
    hours: n(5),
    minutes: n(6),
    seconds: n(7),
  };
  const approxYears =
    d.years +
    d.months / 12 +
    (d.weeks * 7 + d.days) / 365 +
    (d.hours * 3600 + d.minutes * 60 + d.seconds) / 31_536_000;
  return approxYears > MAX_YEARS ? undefined : d;
}

/** Why `text` is not a duration, in a designer's words; undefined when it is one. */
export function durationProblem(text: string): string | undefined {
  if (parseDuration(text) !== undefined) return undefined;
  if (PATTERN.test(text) && text !== 'P' && !text.endsWith('T')) {
    return `"${text}" is longer than ${MAX_YEARS} years`;
  }
  return `"${text}" is not an ISO-8601 duration such as PT30M, PT24H or P1D`;
}

/**
 * Adds a duration to a UTC time in milliseconds. Years and months move the calendar and keep the
 * day of the month, clamped to the month's last day (Jan 31 + P1M = Feb 28 or 29), as calendar
 * tools do; the rest are fixed lengths of time.
 */
export function addDuration(ms: number, d: Duration): number {
  const date = new Date(ms);
  if (d.years || d.months) {
    const totalMonths = date.getUTCMonth() + d.months + d.years * 12;
    const year = date.getUTCFullYear() + Math.floor(totalMonths / 12);
    const month = totalMonths % 12;
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    date.setUTCFullYear(year, month, Math.min(date.getUTCDate(), lastDay));
  }
  const fixedSeconds =
    (d.weeks * 7 + d.days) * 86_400 + d.hours * 3600 + d.minutes * 60 + d.seconds;
  return date.getTime() + Math.round(fixedSeconds * 1000);
}

/** Says a duration in words: `PT24H` is "24 hours", `P1DT30M` is "1 day 30 minutes". */
export function describeDuration(d: Duration): string {
  const parts: [number, string][] = [
    [d.years, 'year'],
    [d.months, 'month'],
    [d.weeks, 'week'],
    [d.days, 'day'],
    [d.hours, 'hour'],
    [d.minutes, 'minute'],
    [d.seconds, 'second'],
  ];
  const words = parts
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`);
  return words.length > 0 ? words.join(' ') : 'no time at all';
}

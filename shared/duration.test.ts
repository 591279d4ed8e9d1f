import { describe, expect, it } from 'vitest';
import {
  addDuration,
  describeDuration,
  durationProblem,
  parseDuration,
  type Duration,
} from './duration.ts';

const zero: Duration = {
  years: 0,
  months: 0,
  weeks: 0,
  days: 0,
  hours: 0,
  minutes: 0,
  seconds: 0,
};
const d = (parts: Partial<Duration>): Duration => ({ ...zero, ...parts });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const utc = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('parseDuration', () => {
  it.each([
    ['P2Y', { years: 2 }],
    ['P3M', { months: 3 }],
    ['P4W', { weeks: 4 }],
    ['P5D', { days: 5 }],
    ['PT6H', { hours: 6 }],
    ['PT7M', { minutes: 7 }],
    ['PT8S', { seconds: 8 }],
    ['PT1.5S', { seconds: 1.5 }],
    ['PT24H', { hours: 24 }],
    ['P0D', {}],
  ])('reads each component alone: %s', (text, parts) => {
    expect(parseDuration(text)).toEqual(d(parts));
  });

  it('reads every component together, in order', () => {
    expect(parseDuration('P1Y2M3W4DT5H6M7.5S')).toEqual({
      years: 1,
      months: 2,
      weeks: 3,
      days: 4,
      hours: 5,
      minutes: 6,
      seconds: 7.5,
    });
  });

  it('tells months (before T) from minutes (after T)', () => {
    expect(parseDuration('P1M')).toEqual(d({ months: 1 }));
    expect(parseDuration('PT1M')).toEqual(d({ minutes: 1 }));
    expect(parseDuration('P1MT1M')).toEqual(d({ months: 1, minutes: 1 }));
  });

  it.each([
    ['empty', ''],
    ['P alone', 'P'],
    ['PT alone', 'PT'],
    ['a trailing T', 'P1DT'],
    ['shorthand', '24h'],
    ['lower case', 'pt24h'],
    ['no P', 'T24H'],
    ['hours before T', 'P24H'],
    ['days after T', 'PT1D'],
    ['components out of order', 'P1D2Y'],
    ['a fraction outside seconds', 'P1.5D'],
    ['a negative number', 'P-1D'],
    ['a sign', 'PT+1H'],
    ['spaces', ' PT1H'],
    ['a trailing space', 'PT1H '],
    ['a unit without a number', 'PTH'],
    ['a number without a unit', 'PT5'],
    ['a fraction without digits after the point', 'PT1.S'],
    ['an exponent', 'PT1e3S'],
    ['a time of day', '12:00'],
  ])('refuses an invalid form: %s (%s)', (_name, text) => {
    expect(parseDuration(text)).toBeUndefined();
    expect(durationProblem(text)).toBe(
      `"${text}" is not an ISO-8601 duration such as PT30M, PT24H or P1D`,
    );
  });

  it('has no problem with a valid duration', () => {
    expect(durationProblem('PT24H')).toBeUndefined();
  });

  it('accepts up to 10,000 years and refuses more, saying why', () => {
    expect(parseDuration('P10000Y')).toEqual(d({ years: 10_000 }));
    expect(parseDuration('P10001Y')).toBeUndefined();
    expect(durationProblem('P10001Y')).toBe('"P10001Y" is longer than 10000 years');
  });

  it.each([
    // 120,001 months is 10,000 years and a month.
    ['months', 'P120001M'],
    // 365 × 10,000 = 3,650,000 days is 10,000 years by the 365-day year used; one more is over.
    ['days', 'P3650001D'],
    ['weeks', 'P521429W'],
    // 10,000 × 31,536,000 = 315,360,000,000 seconds; one more second is over.
    ['seconds', 'PT315360000001S'],
    ['a mix of parts that adds up to over 10,000 years', 'P9999Y13M'],
    ['a number too long to hold', `PT${'9'.repeat(400)}S`],
  ])('refuses over 10,000 years written in %s', (_name, text) => {
    expect(parseDuration(text)).toBeUndefined();
    expect(durationProblem(text)).toMatch(/longer than 10000 years/);
  });

  it('accepts exactly 10,000 years written in days or seconds', () => {
    expect(parseDuration('P3650000D')).toEqual(d({ days: 3_650_000 }));
    expect(parseDuration('PT315360000000S')).toEqual(d({ seconds: 315_360_000_000 }));
  });
});

describe('describeDuration', () => {
  it.each([
    ['PT24H', '24 hours'],
    ['P1DT30M', '1 day 30 minutes'],
    ['PT1H', '1 hour'],
    ['PT1M', '1 minute'],
    ['P1M', '1 month'],
    ['P1Y2M3W4DT5H6M7.5S', '1 year 2 months 3 weeks 4 days 5 hours 6 minutes 7.5 seconds'],
    ['PT0S', 'no time at all'],
  ])('says %s as "%s"', (text, words) => {
    expect(describeDuration(parseDuration(text)!)).toBe(words);
  });
});

describe('addDuration', () => {
  const from = utc('2026-01-01T00:00:00.000Z');

  it.each([
    ['PT24H', DAY],
    ['P1D', DAY],
    ['P1W', 7 * DAY],
    ['PT1H', HOUR],
    ['PT30M', 30 * 60_000],
    ['PT1.5S', 1500],
    ['P1DT30M', DAY + 30 * 60_000],
    ['P2W3DT4H5M6S', 17 * DAY + 4 * HOUR + 5 * 60_000 + 6000],
  ])('adds fixed parts as lengths of time: %s', (text, ms) => {
    expect(addDuration(from, parseDuration(text)!)).toBe(from + ms);
  });

  it('adds nothing for a zero duration', () => {
    expect(addDuration(from, zero)).toBe(from);
  });

  it('adds whole months and years on the calendar, keeping the day and the time of day', () => {
    const t = utc('2026-03-15T10:20:30.000Z');
    expect(iso(addDuration(t, d({ months: 1 })))).toBe('2026-04-15T10:20:30.000Z');
    expect(iso(addDuration(t, d({ months: 10 })))).toBe('2027-01-15T10:20:30.000Z');
    expect(iso(addDuration(t, d({ years: 1 })))).toBe('2027-03-15T10:20:30.000Z');
    expect(iso(addDuration(t, d({ years: 1, months: 14 })))).toBe('2028-05-15T10:20:30.000Z');
  });

  it('clamps to the end of a shorter month: 2026-01-31 + P1M = 2026-02-28', () => {
    expect(iso(addDuration(utc('2026-01-31T00:00:00Z'), d({ months: 1 })))).toBe(
      '2026-02-28T00:00:00.000Z',
    );
  });

  it('clamps to February 29 in a leap year: 2028-01-31 + P1M = 2028-02-29', () => {
    expect(iso(addDuration(utc('2028-01-31T00:00:00Z'), d({ months: 1 })))).toBe(
      '2028-02-29T00:00:00.000Z',
    );
  });

  it('clamps in other months too', () => {
    // March 31 + 1 month: April has 30 days.
    expect(iso(addDuration(utc('2026-03-31T12:00:00Z'), d({ months: 1 })))).toBe(
      '2026-04-30T12:00:00.000Z',
    );
    // February 29 + 1 year: 2029 has no February 29.
    expect(iso(addDuration(utc('2028-02-29T00:00:00Z'), d({ years: 1 })))).toBe(
      '2029-02-28T00:00:00.000Z',
    );
    // January 31 + 13 months is February of the next year.
    expect(iso(addDuration(utc('2026-01-31T00:00:00Z'), d({ months: 13 })))).toBe(
      '2027-02-28T00:00:00.000Z',
    );
  });

  it('moves the calendar first, then adds the fixed parts', () => {
    // 2026-01-31 + P1M is 2026-02-28; one day more is 2026-03-01.
    expect(iso(addDuration(utc('2026-01-31T00:00:00Z'), d({ months: 1, days: 1 })))).toBe(
      '2026-03-01T00:00:00.000Z',
    );
  });

  it('stays a valid time for the longest durations accepted', () => {
    for (const text of ['P10000Y', 'P120000M', 'P3650000D', 'PT315360000000S']) {
      const due = addDuration(from, parseDuration(text)!);
      expect(Number.isFinite(due), text).toBe(true);
      expect(Number.isNaN(new Date(due).getTime()), text).toBe(false);
      // Some 10,000 years on: the year is 12025 or 12026 (365-day years drift a few days).
      expect(new Date(due).getUTCFullYear(), text).toBeGreaterThanOrEqual(12_018);
      expect(new Date(due).getUTCFullYear(), text).toBeLessThanOrEqual(12_026);
    }
  });
});

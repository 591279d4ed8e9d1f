import { describe, expect, it } from 'vitest';
import { gapLabel, timeTicks } from './timeAxis.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

describe('the journal time axis', () => {
  it('puts ticks on round times, no more than asked, within the range', () => {
    const ticks = timeTicks(T0 + 10 * 60_000, T0 + 5 * HOUR, 6);
    expect(ticks.length).toBeLessThanOrEqual(6);
    expect(ticks.map((t) => t.label)).toEqual(['01:00', '02:00', '03:00', '04:00', '05:00']);
  });

  it('labels a tick on midnight with its date, and a long range by dates', () => {
    expect(timeTicks(T0 - 6 * HOUR, T0 + 6 * HOUR, 4).map((t) => t.label)).toEqual([
      '18:00',
      '01-01',
      '06:00',
    ]);
    expect(timeTicks(T0, T0 + 3 * 24 * HOUR, 4).map((t) => t.label)).toEqual([
      '2026-01-01',
      '2026-01-02',
      '2026-01-03',
      '2026-01-04',
    ]);
  });

  it('labels seconds when the range is short', () => {
    expect(timeTicks(T0, T0 + 3000, 4).map((t) => t.label)).toEqual([
      '00:00:00',
      '00:00:01',
      '00:00:02',
      '00:00:03',
    ]);
  });

  it('survives an empty or backward range and a count of zero', () => {
    expect(timeTicks(T0, T0, 5).length).toBeGreaterThanOrEqual(1);
    expect(timeTicks(T0 + 10, T0, 5)).toEqual([]);
    expect(timeTicks(T0, T0 + 100 * 365 * 24 * HOUR, 0).length).toBeLessThanOrEqual(2);
  });

  it('says how long after the previous entry one came, in two units at most', () => {
    expect(gapLabel(0)).toBe('');
    expect(gapLabel(999)).toBe('');
    expect(gapLabel(90_000)).toBe('+1 min 30 s');
    expect(gapLabel(26 * HOUR + 61_000)).toBe('+1 d 2 h');
  });
});

import { describe, expect, it } from 'vitest';
import { dueWords, formatCountdown, formatDue } from './formatTime.ts';

describe('due times as people read them', () => {
  it('counts down in the two largest units', () => {
    expect(formatCountdown((26 * 3600 + 5 * 60) * 1000)).toBe('in 1 d 2 h');
    expect(formatCountdown(5 * 60 * 1000)).toBe('in 5 min');
    expect(formatCountdown(-3 * 3600 * 1000)).toBe('3 h overdue');
    expect(formatCountdown(0)).toBe('due now');
  });

  it('counts down in the largest unit alone where a narrow column asks for one', () => {
    expect(formatCountdown((26 * 3600 + 5 * 60) * 1000, 1)).toBe('in 1 d');
    expect(formatCountdown(-(3 * 3600 + 120) * 1000, 1)).toBe('3 h overdue');
  });

  it('shows the instant in UTC with the countdown', () => {
    expect(formatDue(Date.UTC(2026, 0, 2), Date.UTC(2026, 0, 1))).toBe(
      '2026-01-02 00:00:00 (in 1 d)',
    );
  });

  it('says a badge’s due time once: "due now", never "due due now"', () => {
    expect(dueWords(0)).toBe('due now');
    expect(dueWords(5 * 60 * 1000)).toBe('due in 5 min');
    expect(dueWords(-3 * 3600 * 1000)).toBe('3 h overdue');
  });
});

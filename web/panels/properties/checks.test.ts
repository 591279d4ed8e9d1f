import { describe, expect, it } from 'vitest';
import {
  callTimeoutCheck,
  conditionCheck,
  durationCheck,
  durationInWords,
  eventNameRefusal,
  expressionCheck,
  optionalPathCheck,
  pathCheck,
} from './checks.ts';

describe('checks as you type', () => {
  it('says why an expression does not parse, and is quiet when it does', () => {
    expect(expressionCheck('prices.read + 1')).toBeUndefined();
    expect(expressionCheck('(1 + ')).toMatch(/^The expression does not parse/);
    expect(expressionCheck('')).toMatch(/^The expression is empty/);
  });

  it('takes an empty condition as always', () => {
    expect(conditionCheck('')).toBeUndefined();
    expect(conditionCheck('  ')).toBeUndefined();
    expect(conditionCheck('a >')).toMatch(/does not parse/);
  });

  it('checks paths; an empty `into` is none', () => {
    expect(pathCheck('order.total')).toBeUndefined();
    expect(pathCheck('order..total')).toMatch(/empty part/);
    expect(pathCheck('')).toBe('the path is empty');
    expect(optionalPathCheck('')).toBeUndefined();
    expect(optionalPathCheck('a.__proto__')).toMatch(/reserved/);
  });

  it('says a duration in words, or why it is not one', () => {
    expect(durationInWords('PT24H')).toBe('24 hours');
    expect(durationInWords('P1DT30M')).toBe('1 day 30 minutes');
    expect(durationInWords('24h')).toBeUndefined();
    expect(durationCheck('PT24H')).toBeUndefined();
    expect(durationCheck('24h')).toMatch(/not an ISO-8601 duration/);
  });

  it('refuses an empty event name, which the format cannot hold', () => {
    expect(eventNameRefusal('')).toBe('an event trigger needs the name of the event it waits for');
    expect(eventNameRefusal('prices.changed')).toBeUndefined();
  });

  it("says a call's timeout past the limit where it is typed, as the problems list does", () => {
    expect(callTimeoutCheck('')).toBeUndefined();
    expect(callTimeoutCheck('PT1H')).toBeUndefined();
    expect(callTimeoutCheck('PT61M')).toBe('timeout: at most PT1H is allowed');
    expect(callTimeoutCheck('P1D')).toBe('timeout: at most PT1H is allowed');
    expect(callTimeoutCheck('soon')).toMatch(/not an ISO-8601 duration/);
  });
});

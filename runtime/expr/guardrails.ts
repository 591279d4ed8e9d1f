import { MAX_VALUE_CHARS } from '../../shared/contextWrite.ts';
import { LinearRegExp } from '../../shared/linearRegex.ts';
import { inSeconds } from './inSeconds.ts';

/**
 * Limits on one evaluation of a JSONata expression. jsonata checks them as it evaluates, which
 * is what stops a runaway expression: the evaluation never yields to timers, so a timeout on
 * the promise could not (issue 3; jsonata's `{ timeout, stack, sequence }` options).
 */
export const EXPRESSION_LIMITS = {
  /** Milliseconds of evaluation before the node fails. */
  timeout: 1000,
  /** Nested evaluation depth: deep recursion fails instead of exhausting the stack. */
  stack: 300,
  /** Longest sequence an expression may build (`[1..10000000]` fails at once). */
  sequence: 100_000,
} as const;

/**
 * The options every evaluation compiles with: the limits, and regular expressions matched in
 * linear time, since a backtracking match (`/^(a+)+$/`) is one native call no limit can stop.
 * jsonata reads `timeout` from this object each time it evaluates, so setExpressionTimeout
 * reaches expressions compiled before it too.
 */
export const EXPRESSION_OPTIONS: {
  timeout: number;
  stack: number;
  sequence: number;
  RegexEngine: RegExpConstructor;
} = {
  ...EXPRESSION_LIMITS,
  RegexEngine: LinearRegExp as unknown as RegExpConstructor,
};

/**
 * Sets the time limit of every evaluation (EXPRESSION_LIMITS.timeout when called with none). The
 * app never calls it: it is a setting for tests, which reach the limit in milliseconds instead
 * of waiting out a second (docs/decisions.md, "Limits are settings").
 */
export function setExpressionTimeout(ms: number = EXPRESSION_LIMITS.timeout): void {
  EXPRESSION_OPTIONS.timeout = ms;
}

export { inSeconds };

/** Longest array a step may build: more items than fit in a value even one character each. */
export const MAX_ARRAY_ITEMS = MAX_VALUE_CHARS / 2;

/** A value built during an evaluation that no context could hold; the node fails with it. */
class ValueTooLarge extends Error {}

/**
 * Called by jsonata as each part of an expression is evaluated (`__evaluate_exit`), with its
 * result. A string longer than the value limit, or an array with more items, fails the node
 * there, before the next function sees it: some of jsonata's string functions copy a string into
 * an array of its characters (`$length`, `$substring`), and one of 2^27 characters ends the whole
 * program natively (V8's "invalid size error"), where no exception could be caught.
 */
export function checkValueSize(
  _expr: unknown,
  _input: unknown,
  _environment: unknown,
  result: unknown,
): void {
  if (typeof result === 'string' && result.length > MAX_VALUE_CHARS) {
    throw new ValueTooLarge(
      `built a string of ${result.length.toLocaleString('en')} characters; a value holds at most ${MAX_VALUE_CHARS.toLocaleString('en')}`,
    );
  }
  if (Array.isArray(result) && result.length > MAX_ARRAY_ITEMS) {
    throw new ValueTooLarge(
      `built an array of ${result.length.toLocaleString('en')} items; a value holds at most ${MAX_ARRAY_ITEMS.toLocaleString('en')}`,
    );
  }
}

/** The environment key under which jsonata looks for `checkValueSize`. */
export const EVALUATE_EXIT = Symbol.for('jsonata.__evaluate_exit');

/** Says in a designer's words why an evaluation failed, naming the limit when one was hit. */
export function explainEvaluationError(e: unknown): string {
  if (e instanceof ValueTooLarge) return e.message;
  const err = (e ?? {}) as { code?: unknown; message?: unknown; value?: unknown };
  switch (err.code) {
    case 'D1012':
      return `ran for more than ${inSeconds(typeof err.value === 'number' ? err.value : EXPRESSION_OPTIONS.timeout)}; is it an endless loop?`;
    case 'U1001':
      return `went more than ${EXPRESSION_LIMITS.stack} calls deep; is it an endless recursion?`;
    case 'D2015':
      return `built a sequence of more than ${EXPRESSION_LIMITS.sequence.toLocaleString('en')} items`;
  }
  if (e instanceof RangeError) {
    return /call stack/i.test(e.message)
      ? 'went too deep for the stack; is it an endless recursion?'
      : `built a value too large to hold (${e.message})`;
  }
  const message = typeof err.message === 'string' ? err.message : String(e);
  return typeof err.code === 'string' ? `${message} (${err.code})` : message;
}

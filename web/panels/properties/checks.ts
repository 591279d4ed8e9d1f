import { CALL_LIMITS, durationMs } from '../../../shared/callRules.ts';
import { contextPathProblem } from '../../../shared/contextPath.ts';
import { describeDuration, durationProblem, parseDuration } from '../../../shared/duration.ts';
import {
  expressionProblem,
  expressionProblemAt,
  type ProblemSpan,
} from '../../../shared/expressionSyntax.ts';

/**
 * The checks the panel runs on a draft as it is typed, in the words of the problems list. They
 * parse only; a flow with problems can still be saved (docs/format.md#errors), so they do not block a
 * commit, except where noted.
 */

export function expressionCheck(text: string): string | undefined {
  const p = expressionProblem(text);
  return p && `The expression ${p}`;
}

/** An edge's condition: empty means the edge is always taken. */
export const conditionCheck = (text: string): string | undefined =>
  text.trim() === '' ? undefined : expressionCheck(text);

export const pathCheck = (text: string): string | undefined => contextPathProblem(text);

/** An optional path (`into`): empty means none. */
export const optionalPathCheck = (text: string): string | undefined =>
  text === '' ? undefined : contextPathProblem(text);

export const durationCheck = (text: string): string | undefined => durationProblem(text);

/**
 * A call's timeout: empty is the default; otherwise a duration no longer than the limit, said
 * where it is typed with the words of the problems list (shared/callProblems.ts).
 */
export function callTimeoutCheck(text: string): string | undefined {
  if (text === '') return undefined;
  const problem = durationProblem(text);
  if (problem !== undefined) return problem;
  return durationMs(text)! > durationMs(CALL_LIMITS.maxTimeout)!
    ? `timeout: at most ${CALL_LIMITS.maxTimeout} is allowed`
    : undefined;
}

/** A valid duration in words (`PT24H`: "24 hours"); undefined when it is not one. */
export function durationInWords(text: string): string | undefined {
  const d = parseDuration(text);
  return d && describeDuration(d);
}

/** An event name may not be empty: the format refuses the file (blocks the commit). */
export const eventNameRefusal = (text: string): string | undefined =>
  text === '' ? 'an event trigger needs the name of the event it waits for' : undefined;

/** `expressionCheck` with the characters its problem is at, for the expression editor. */
export function expressionCheckAt(text: string): ProblemSpan | undefined {
  const p = expressionProblemAt(text);
  return p && { ...p, message: `The expression ${p.message}` };
}

/** `conditionCheck` with the characters its problem is at. */
export const conditionCheckAt = (text: string): ProblemSpan | undefined =>
  text.trim() === '' ? undefined : expressionCheckAt(text);

import type { AttemptResult, CallRetry } from './recordedCall.ts';

/**
 * How long to wait before the attempt after attempt `attempt` (counted from 1), or undefined when
 * no other attempt follows: no retry policy, `max` more attempts already made, or a failure that
 * `retry.on` does not list (docs/format.md#calls). The wait is `interval × backoff^(attempt−1)`,
 * capped at `maxInterval`; an answer's `Retry-After` takes its place, within the same cap, since
 * the server knows better than a formula when it can answer.
 */
export function nextDelay(
  retry: CallRetry | undefined,
  attempt: number,
  result: AttemptResult,
): number | undefined {
  if (!retry || attempt > retry.max || !isRetryable(retry, result)) return undefined;
  const cap = retry.maxInterval > 0 ? retry.maxInterval : Infinity;
  const wanted = result.retryAfter ?? retry.interval * retry.backoff ** (attempt - 1);
  return Math.max(0, Math.min(wanted, cap));
}

/** Whether `retry.on` lists the attempt's failure. */
export function isRetryable(retry: CallRetry, result: AttemptResult): boolean {
  return result.failure !== undefined && retry.on.includes(result.failure);
}

const HTTP_DATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * A `Retry-After` header in milliseconds from `now`: delay-seconds or an HTTP-date (RFC 9110
 * §10.2.3). Undefined for anything else, so a malformed header falls back to the backoff.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!HTTP_DATE.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

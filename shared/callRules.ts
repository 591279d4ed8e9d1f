import { addDuration, parseDuration } from './duration.ts';
import type { HttpMethod } from './schema.ts';

/**
 * What a call is when its fields are absent, and the bounds validation holds it to
 * (docs/format.md#calls; the bounds the contract leaves open are in docs/decisions.md).
 */
export const CALL_DEFAULTS = {
  method: 'GET' as HttpMethod,
  timeout: 'PT30S',
  retry: { max: 3, interval: 'PT1S', backoff: 2, maxInterval: 'PT1H' },
} as const;

/** The failures retried when `retry.on` is absent: 429, every 5xx, network and timeout. */
export const DEFAULT_RETRY_ON: readonly (number | 'network' | 'timeout')[] = Object.freeze([
  429,
  ...Array.from({ length: 100 }, (_, i) => 500 + i),
  'network',
  'timeout',
]);

export const CALL_LIMITS = {
  /** More attempts after the first: a hundred is already more than any server wants. */
  maxRetries: 100,
  /** Headers per call: a map this large is a mistake or an attack, never a request. */
  maxHeaders: 50,
  maxBackoff: 100,
  /** The longest an attempt may wait for an answer. */
  maxTimeout: 'PT1H',
} as const;

/** A duration in ms, counted from the epoch for years and months; undefined if not one. */
export function durationMs(text: string): number | undefined {
  const d = parseDuration(text);
  return d === undefined ? undefined : addDuration(0, d);
}

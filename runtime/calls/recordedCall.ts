/**
 * The request the engine records in a call's wait (docs/format.md#calls): evaluated once, when
 * the process reached the node, so that every attempt and every re-send after a restart sends the
 * same request. Secrets stand in it as `{{secret:name}}` placeholders, never as values.
 *
 * Mirrors `RecordedCall` of runtime/engine/snapshot.ts, kept structural here so that the sender
 * depends on nothing of the engine but this shape.
 */
export interface RecordedCall {
  trigger: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  /** Milliseconds an attempt may take, answer read whole. */
  timeout: number;
  retry?: CallRetry;
}

/** A call's retry policy with every default filled in; durations in milliseconds. */
export interface CallRetry {
  /** More attempts after the first. */
  max: number;
  interval: number;
  backoff: number;
  maxInterval: number;
  on: RetryOn[];
}

export type RetryOn = number | 'network' | 'timeout';

/** What the trigger fires with, written at `into` (docs/format.md#calls). */
export interface CallOutcome {
  ok: boolean;
  /** 0 when no answer came. */
  status: number;
  /** Names in lower case. */
  headers: Record<string, string>;
  /** Parsed JSON when the answer says JSON, its text otherwise; null when there is none. */
  body: unknown;
  attempts: number;
  error?: string;
}

/** One attempt's result: the outcome it would give, and what decides whether another follows. */
export interface AttemptResult {
  outcome: Omit<CallOutcome, 'attempts'>;
  /** How `retry.on` names this failure; undefined when the attempt succeeded or cannot be retried. */
  failure?: RetryOn;
  /** The answer's `Retry-After`, in milliseconds from when it came. */
  retryAfter?: number;
  /** Whether a request left (or may have left): false for a refusal before sending. */
  sent: boolean;
  /** Answered by the call's pin, not sent (docs/format.md#pinned-answers). */
  pinned?: true;
}

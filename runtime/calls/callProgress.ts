import type { AttemptResult, CallOutcome, RecordedCall } from './recordedCall.ts';
import { nextDelay } from './retryPolicy.ts';

/**
 * What is kept of a call's attempts between them, beside the process and outside its snapshot
 * (the snapshot says where the process is; this says how its request is faring).
 */
export interface CallProgress {
  /** The wait it belongs to, by its number in the process. */
  seq: number;
  /** Attempts begun so far. */
  attempts: number;
  /** When the next attempt is due, in ms since the epoch; null while one is in flight. */
  due: number | null;
  /** The last attempt's status (0 without an answer) and error: what a report shows. */
  last?: { status: number; error?: string };
  /**
   * An answer that comes at `due` (a scenario's answer `after` some time on the virtual clock),
   * and how long it took: applied then instead of sending again.
   */
  answer?: AttemptResult;
  answerMs?: number;
}

/** The progress of a call the process has just reached: its first attempt is due at once. */
export const firstProgress = (seq: number, now: number): CallProgress => ({
  seq,
  attempts: 0,
  due: now,
});

/** An attempt begins: counted before it is sent, so that a re-send after a crash counts too. */
export const attemptBegun = (progress: CallProgress): CallProgress => ({
  ...progress,
  attempts: progress.attempts + 1,
  due: null,
});

/**
 * What follows attempt `progress.attempts`, ended with `result` at `now`: another attempt, due
 * after the retry policy's wait, or the outcome the trigger fires with (docs/format.md#calls).
 */
export function afterAttempt(
  call: RecordedCall,
  progress: CallProgress,
  result: AttemptResult,
  now: number,
): { outcome: CallOutcome } | { progress: CallProgress } {
  const delay = nextDelay(call.retry, progress.attempts, result);
  if (delay === undefined) return { outcome: { ...result.outcome, attempts: progress.attempts } };
  const { status, error } = result.outcome;
  return {
    progress: {
      seq: progress.seq,
      attempts: progress.attempts,
      due: now + delay,
      last: error === undefined ? { status } : { status, error },
    },
  };
}

/**
 * The journal's record of one attempt (docs/format.md#calls): method, the URL as recorded (a
 * secret stays a placeholder), status or error, how long it took; never a header.
 */
export function attemptEntry(
  call: RecordedCall,
  attempt: number,
  result: AttemptResult,
  ms: number,
): {
  attempt: number;
  method: string;
  url: string;
  status: number;
  error?: string;
  ms: number;
  pinned?: true;
} {
  const { status, error } = result.outcome;
  return {
    attempt,
    method: call.method,
    url: call.url,
    status,
    ...(error === undefined ? {} : { error }),
    ms,
    ...(result.pinned ? { pinned: true as const } : {}),
  };
}

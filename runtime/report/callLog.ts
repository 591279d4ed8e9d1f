import type { CallProgress } from '../calls/callProgress.ts';
import type { CallWait } from '../calls/callSender.ts';

/** One attempt of a call as a scenario's report shows it (docs/format.md#scenarios). */
export interface AttemptReport {
  attempt: number;
  /** When it was sent, on the virtual clock. */
  at: string;
  /** How long its answer took (ms); absent, with status, while no answer has come. */
  ms?: number;
  /** 0 when no answer came (a network error, a timeout). */
  status?: number;
  error?: string;
  /** Answered by the call's pin (docs/format.md#pinned-answers). */
  pinned?: true;
}

/** A call a process made, its attempts, and when the next falls due while it still waits. */
export interface CallReport {
  node: string;
  trigger: string;
  attempts: AttemptReport[];
  /**
   * While the call still waits: when its next attempt (or an answer kept for later) is due.
   * null once it has ended, or while its attempt waits for a `respond` step.
   */
  next: string | null;
}

interface Logged {
  seq: number;
  node: string;
  trigger: string;
  attempts: Map<number, AttemptReport>;
  /** When each attempt was sent, in ms, to time its answer. */
  sent: Map<number, number>;
}

/**
 * The attempts of every call of a simulation, as they begin and as they are answered: a
 * scenario's store keeps no journal (docs/decisions.md), and a call's progress keeps only its
 * last status, so the report's list of attempts is kept here.
 */
export class CallLog {
  private readonly calls = new Map<string, Map<number, Logged>>();

  begun(processId: string, wait: CallWait, attempt: number, at: number): void {
    // An attempt sent again (after a stop) is the same attempt: its latest sending stands.
    const logged = this.of(processId, wait);
    logged.attempts.set(attempt, { attempt, at: iso(at) });
    logged.sent.set(attempt, at);
  }

  answered(
    processId: string,
    wait: CallWait,
    entry: { attempt: number; status: number; error?: string; ms: number; pinned?: true },
    at: number,
  ): void {
    const { attempt, status, error } = entry;
    const logged = this.of(processId, wait);
    // Timed from its sending on the virtual clock: a `respond` answers when its step comes.
    const sent = logged.sent.get(attempt) ?? at - entry.ms;
    logged.attempts.set(attempt, {
      attempt,
      at: iso(sent),
      ms: at - sent,
      status,
      ...(error === undefined ? {} : { error }),
      ...(entry.pinned ? { pinned: true as const } : {}),
    });
  }

  /** The calls of a process in the order it made them; `progress` says which still wait. */
  report(processId: string, progress: readonly CallProgress[]): CallReport[] {
    const due = new Map(progress.map((p) => [p.seq, p.due]));
    return [...(this.calls.get(processId)?.values() ?? [])]
      .sort((a, b) => a.seq - b.seq)
      .map((c) => {
        const next = due.get(c.seq) ?? null;
        return {
          node: c.node,
          trigger: c.trigger,
          attempts: [...c.attempts.values()].sort((a, b) => a.attempt - b.attempt),
          next: next === null ? null : iso(next),
        };
      });
  }

  private of(processId: string, wait: CallWait): Logged {
    let calls = this.calls.get(processId);
    if (!calls) this.calls.set(processId, (calls = new Map()));
    let logged = calls.get(wait.seq);
    if (!logged) {
      logged = {
        seq: wait.seq,
        node: wait.node,
        trigger: wait.call.trigger,
        attempts: new Map(),
        sent: new Map(),
      };
      calls.set(wait.seq, logged);
    }
    return logged;
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

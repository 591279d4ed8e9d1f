import type * as restate from '@restatedev/restate-sdk';
import {
  afterAttempt,
  attemptBegun,
  attemptEntry,
  firstProgress,
  type CallProgress,
} from '../calls/callProgress.ts';
import type { CallWait } from '../calls/callSender.ts';
import { idempotencyKey } from '../calls/idempotencyKey.ts';
import type { AttemptResult } from '../calls/recordedCall.ts';
import { sendAttempt } from '../calls/sendAttempt.ts';
import { callWaitsOf } from '../supervisor/callWaits.ts';
import { MAX_STEPS_PER_RUN } from '../supervisor/limits.ts';
import { stamp } from '../supervisor/recordFacts.ts';
import type { ProcessRecord, ProcessStatus } from '../supervisor/records.ts';
import type { Supervisor } from '../supervisor/supervisor.ts';
import type { CallSettings } from './callSettings.ts';
import type { ProcessStore } from './processStore.ts';

/** Statuses whose process may still go on, whose call waits therefore keep their progress. */
const LIVE: readonly ProcessStatus[] = ['waiting', 'stopped', 'failed', 'flow-changed'];

/** The clock of one invocation: the time Restate journaled, moved on after each attempt. */
export interface InvocationClock {
  now(): number;
  set(now: number): void;
}

/**
 * Brings the stored progress in line with the call waits the process stands at, as the
 * browser's sender does after every commit (CallSender.sync): a new wait's first attempt is due
 * at once, the progress of a wait that is gone (another trigger fired, cancelled, done) is
 * dropped. Returns when the next attempt falls due, or null: none, or the process may not run.
 */
export async function syncCalls(
  store: ProcessStore,
  record: ProcessRecord,
  now: number,
): Promise<number | null> {
  const waits = LIVE.includes(record.status) ? callWaitsOf(record.snapshot) : [];
  const stored = await store.listCallProgress(record.id);
  for (const p of stored)
    if (!waits.some((w) => w.seq === p.seq)) await store.deleteCallProgress(record.id, p.seq);
  let next: number | null = null;
  for (const w of waits) {
    let p = stored.find((s) => s.seq === w.seq);
    if (!p) {
      p = firstProgress(w.seq, now);
      await store.putCallProgress(record.id, p);
    }
    // No due time: an attempt whose invocation was cancelled mid-flight, sent again at once.
    const due = p.due ?? now;
    if (next === null || due < next) next = due;
  }
  return record.status === 'waiting' ? next : null;
}

/**
 * Sends the process's call attempts due by now, one at a time, each as a journaled side effect
 * (`ctx.run`): once an attempt's result is in Restate's journal, a replay of this invocation
 * (the endpoint died, the server restarted) reads it back instead of sending again; an attempt
 * whose result was not journaled yet is sent again, with the same Idempotency-Key, since the key
 * is derived from the wait alone (idempotencyKey.ts). The attempt is counted in the object's
 * state before it is sent, as the browser counts it, so a re-send is the same attempt.
 *
 * The request is filled with its secrets inside the side effect only (sendAttempt), and what it
 * returns is scrubbed of them: what Restate journals is the recorded request's placeholders and a
 * scrubbed answer, never a value. Attempts are sent in order of their waits, not at once: the
 * handler's journal is ordered, and a fan-out's attempts then wait behind one another (each is
 * bounded by its timeout).
 */
export async function sendDueCalls(
  ctx: restate.ObjectContext,
  store: ProcessStore,
  supervisor: Supervisor,
  clock: InvocationClock,
  settings: CallSettings,
): Promise<number> {
  let sent = 0;
  // A fire can bring the process to another call due at once; a flow that does so without end
  // is left to the next invocation after as many rounds as a run has steps.
  for (let round = 0; round < MAX_STEPS_PER_RUN; round++) {
    const record = await store.getProcess(ctx.key);
    if (!record || record.status !== 'waiting') return sent;
    const now = clock.now();
    if ((await syncCalls(store, record, now)) === null) return sent;
    const progress = await store.listCallProgress(ctx.key);
    const wait = callWaitsOf(record.snapshot).find((w) => {
      const p = progress.find((q) => q.seq === w.seq);
      return p !== undefined && (p.due === null || p.due <= now);
    });
    if (!wait) return sent;
    await attempt(
      ctx,
      store,
      supervisor,
      clock,
      settings,
      wait,
      progress.find((p) => p.seq === wait.seq)!,
    );
    sent++;
  }
  return sent;
}

async function attempt(
  ctx: restate.ObjectContext,
  store: ProcessStore,
  supervisor: Supervisor,
  clock: InvocationClock,
  settings: CallSettings,
  wait: CallWait,
  progress: CallProgress,
): Promise<void> {
  const id = ctx.key;
  const begun = progress.due === null ? progress : attemptBegun(progress);
  await store.putCallProgress(id, begun);
  // What a reader is shown while the attempt is out (its progress, `rest`'s callDue) is written
  // before it is sent, the meta that says progress is kept included.
  store.flush();
  const key = idempotencyKey(id, wait);
  const { result, ms } = await ctx.run(
    `call ${wait.node} attempt ${begun.attempts}`,
    async (): Promise<{ result: AttemptResult; ms: number }> => {
      const began = Date.now();
      const result = await sendAttempt(wait.call, {
        secrets: settings.secrets,
        allow: settings.allow,
        limiter: settings.limiter,
        key,
        ...(settings.fetch ? { fetch: settings.fetch } : {}),
      });
      return { result, ms: Date.now() - began };
    },
  );
  // The answer's time, journaled: a retry's wait and the fire's step are measured from it.
  clock.set(await ctx.date.now());
  const record = await store.getProcess(id);
  if (record) {
    const entry = { type: 'call-attempt' as const, node: wait.node, wait: wait.seq };
    await store.putProcess(record, [
      stamp(
        id,
        { ...entry, ...attemptEntry(wait.call, begun.attempts, result, ms) },
        undefined,
        clock.now(),
      ),
    ]);
  }
  const next = afterAttempt(wait.call, begun, result, clock.now());
  if ('progress' in next) return store.putCallProgress(id, next.progress);
  // Fired before the progress is dropped; the fire reaches only a wait that still exists.
  await supervisor.fireCall(id, wait.seq, wait.call.trigger, next.outcome);
  await store.deleteCallProgress(id, wait.seq);
}

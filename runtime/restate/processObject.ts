import * as restate from '@restatedev/restate-sdk';
import type { z } from 'zod';
import { waitsWithTriggers } from '../engine/step.ts';
import { callWaitsOf } from '../supervisor/callWaits.ts';
import { reportProcesses, type ProcessReport } from '../report/processReport.ts';
import type { ProcessRecord } from '../supervisor/records.ts';
import type { Flow } from '../../shared/schema.ts';
import type { ProcessReadingOf } from '../supervisor/processReading.ts';
import { Supervisor, SupervisorError } from '../supervisor/supervisor.ts';
import {
  checkInput,
  eventInput,
  humanInput,
  readingInput,
  replaceContextInput,
  resolveInput,
  sendCallNowInput,
  forkInput,
  setContextInput,
  startInput,
} from './processInput.ts';
import { sendDueCalls, syncCalls, type InvocationClock } from './callAttempts.ts';
import { NO_CALLS, type CallSettings } from './callSettings.ts';
import { noteRow } from './processIndex.ts';
import { ProcessStore } from './processStore.ts';
import { PROCESS, type ProcessCalls, type ProcessRest } from './processRef.ts';
import { CONTEXT, EVENTS, WAKER } from './refs.ts';

/** What a control hands back: where the process is now. */
export interface ProcessView {
  id: string;
  flow: string;
  status: ProcessRecord['status'];
  error: string | null;
  due: string | null;
}

/** `status`: the process as `flow simulate` reports it, with its context's id and version. */
export type ProcessStatusReport = ProcessReport & {
  id: string;
  contextId: string;
  contextVersion: number;
  journalLength: number;
  /** The event names the event index has been told this process waits for. */
  events: string[];
  /**
   * Each call it waits at: attempts begun, when the next is due (null while one is in flight),
   * the last attempt's status and error (docs/restate.md#calls).
   */
  callProgress: {
    node: string;
    attempts: number;
    next: string | null;
    last?: { status: number; error?: string };
  }[];
};

/** `reading`: the record, its live context and changes, its newest journal, its flows and calls. */
export type ProcessReadingView = ProcessReadingOf<Record<string, Flow>>;

const viewOf = (r: ProcessRecord): ProcessView => ({
  id: r.id,
  flow: r.flow,
  status: r.status,
  error: r.error,
  due: r.due === null ? null : new Date(r.due).toISOString(),
});

/** The invocation's time, read once through Restate (journaled), moved on only by attempts. */
function invocationClock(now: number): InvocationClock {
  let at = now;
  return { now: () => at, set: (t) => void (at = t) };
}

/**
 * The supervisor of this one process, inside its handler. Its clock is the invocation's time,
 * read through Restate (so a replay sees the same time) and passed to the engine as data;
 * new context ids come from Restate's deterministic random source for the same reason.
 */
function supervisorFor(
  ctx: restate.ObjectContext | restate.ObjectSharedContext,
  clock: { now(): number },
): Supervisor {
  return new Supervisor(
    new ProcessStore(ctx),
    { now: () => clock.now() },
    {
      newId: (kind) => `${kind}-${ctx.rand.uuidv4()}`,
      // Attempts run in the `calls` handler as journaled side effects (callAttempts.ts): the
      // supervisor's own loop would leave them running past the handler.
      sendsCalls: false,
    },
  );
}

/**
 * After every control: a timer becomes one delayed call, at the due time, to the waker of the
 * process's context, which ticks the process (contextWaker.ts), and the event index learns which
 * names the process now waits for. There is at most one such call per process: when the due
 * time moves (an event or a form answered the wait first) or the process no longer waits (done,
 * stopped, failed, resolved), the call scheduled before is cancelled by its invocation id, so
 * wakes that are no longer needed do not pile up on the server.
 */
async function settle(
  ctx: restate.ObjectContext,
  supervisor: Supervisor,
  clock: InvocationClock,
): Promise<void> {
  const record = await ctx.get<ProcessRecord>('record');
  if (!record) return;
  await noteRow(ctx, record);
  const waiting = record.status === 'waiting';
  await schedule(ctx, 'tick', waiting && record.due !== null ? record.due : null, (delay, at) =>
    ctx
      .objectSendClient(WAKER, record.contextId)
      .wake({ process: ctx.key, at }, restate.rpc.sendOpts({ delay })),
  );
  // A call's next attempt: a delayed call to this process's own `calls` handler, not through
  // the context's waker, which would hold every process of the context while a request is out.
  const callDue = await syncCalls(new ProcessStore(ctx), record, clock.now());
  await schedule(ctx, 'call', callDue, (delay, at) =>
    ctx.objectSendClient(PROCESS, ctx.key).calls({ at }, restate.rpc.sendOpts({ delay })),
  );
  const flows = waiting ? await supervisor.sleptOn(record) : undefined;
  const names = flows
    ? [
        ...new Set(
          waitsWithTriggers(record.snapshot, (f) => flows.get(f)).flatMap((w) =>
            w.triggers.flatMap((t) => (t.event === undefined ? [] : [t.event])),
          ),
        ),
      ].sort()
    : [];
  const before = (await ctx.get<string[]>('events')) ?? [];
  for (const n of names)
    if (!before.includes(n))
      ctx.objectSendClient(EVENTS, n).wait({ process: ctx.key, created: record.created });
  for (const n of before) if (!names.includes(n)) ctx.objectSendClient(EVENTS, n).unwait(ctx.key);
  if (names.join('\n') !== before.join('\n')) ctx.set('events', names);
}

/**
 * Keeps one delayed call of a kind (`tick`, `call`) scheduled for the due time `wanted`, or
 * none: the one scheduled before for another time is cancelled by its invocation id.
 */
async function schedule(
  ctx: restate.ObjectContext,
  kind: 'tick' | 'call',
  wanted: number | null,
  send: (delay: number, at: number) => { invocationId: Promise<string> },
): Promise<void> {
  if (wanted === (await ctx.get<number>(`${kind}At`))) return;
  const pending = await ctx.get<string>(`${kind}Invocation`);
  if (pending !== null) ctx.cancel(restate.InvocationIdParser.fromString(pending));
  if (wanted === null) {
    ctx.clear(`${kind}At`);
    ctx.clear(`${kind}Invocation`);
    return;
  }
  const delay = Math.max(0, wanted - (await ctx.date.now()));
  const handle = send(delay, wanted);
  ctx.set(`${kind}Invocation`, String(await handle.invocationId));
  ctx.set(`${kind}At`, wanted);
}

/** A delayed call now running clears its slot first, so the settle after it schedules afresh. */
async function clearSlot(
  ctx: restate.ObjectContext,
  kind: 'tick' | 'call',
  at: number | undefined,
): Promise<void> {
  // A call for an older due time (one whose cancellation came too late) leaves the scheduled
  // one alone; what it runs finds nothing due, as the clock is the invocation's.
  if (at === undefined || at === (await ctx.get<number>(`${kind}At`))) {
    ctx.clear(`${kind}At`);
    ctx.clear(`${kind}Invocation`);
  }
}

/**
 * An exclusive handler that runs the supervisor. A refusal (SupervisorError: nothing was
 * changed) becomes a TerminalError, so Restate answers the caller with it instead of retrying;
 * any other error is Restate's to retry, replaying what was already recorded.
 */
function control<I, O>(
  run: (
    supervisor: Supervisor,
    input: I,
    ctx: restate.ObjectContext,
    clock: InvocationClock,
  ) => Promise<O>,
  { ingressPrivate, creates = false }: { ingressPrivate?: boolean; creates?: boolean } = {},
) {
  return restate.handlers.object.exclusive(
    ingressPrivate === undefined ? {} : { ingressPrivate },
    async (ctx: restate.ObjectContext, input: I): Promise<O> => {
      // Asked first, so that an unknown process is a 404 as for status, not the supervisor's 400.
      if (!creates && (await ctx.get<ProcessRecord>('record')) === null) throw unknown(ctx.key);
      const clock = invocationClock(await ctx.date.now());
      const supervisor = supervisorFor(ctx, clock);
      let result: O;
      try {
        result = await run(supervisor, input, ctx, clock);
      } catch (e) {
        if (!(e instanceof SupervisorError)) throw e;
        await settle(ctx, supervisor, clock);
        throw new restate.TerminalError(e.message, { errorCode: 400 });
      }
      await settle(ctx, supervisor, clock);
      return result;
    },
  );
}

const unknown = (id: string) =>
  new restate.TerminalError(`there is no process "${id}"`, { errorCode: 404 });

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const checked = checkInput(schema, input);
  if (!checked.ok) throw new SupervisorError(checked.errors.join('\n'));
  return checked.value;
}

/**
 * A process, keyed by its id: its record (status, snapshot, due time, versions) and its journal
 * are this object's state, and every control runs the browser's supervisor on it. `calls` is
 * how the endpoint sends call attempts (flow serve's --allow-origin and environment).
 */
export const processObjectWith = (calls: CallSettings) =>
  restate.object({
    name: 'process',
    handlers: {
      start: control(
        async (s, input: unknown, ctx) => {
          const { flow, context, shareContextWith } = parse(startInput, input);
          return viewOf(
            await s.start(flow, {
              id: ctx.key,
              ...(context !== undefined ? { context } : {}),
              ...(shareContextWith !== undefined ? { shareContextWith } : {}),
            }),
          );
        },
        { creates: true },
      ),
      /**
       * The workbench's "Fork from here", sent to the new process's key: it starts at the position
       * journal entry `seq` of `from` kept (fork.ts), on a copy of the context as of then or on the
       * live one, and runs until it waits, as a start does.
       */
      fork: control(
        async (s, input: unknown, ctx) => {
          const { from, seq, context } = parse(forkInput, input);
          const forked = await s.fork(from, { seq, context, id: ctx.key });
          return viewOf(forked.status === 'running' ? await s.drive(ctx.key) : forked);
        },
        { creates: true },
      ),
      /** A delayed call at a due time: fires whatever is due by now, as wakeDue does. */
      tick: control(
        async (s, input: { at?: number } | null, ctx) => {
          // The call scheduled for the due time now firing: cleared first, so that the settle
          // after this wake schedules the next due time afresh. A call for an older due time (one
          // whose cancellation came too late) leaves the scheduled one alone; its wake finds
          // nothing due, as the clock is the invocation's.
          await clearSlot(ctx, 'tick', input?.at);
          return s.wakeDue();
        },
        { ingressPrivate: true },
      ),
      /** A delayed call at a call's due time: sends the attempts due by now (callAttempts.ts). */
      calls: control(
        async (s, input: { at?: number } | null, ctx, clock) => {
          await clearSlot(ctx, 'call', input?.at);
          return sendDueCalls(ctx, new ProcessStore(ctx), s, clock, calls);
        },
        { ingressPrivate: true },
      ),
      /**
       * The workbench's "Send next attempt now": the next attempt of call wait `seq` falls due
       * now and is sent, as the browser's sender does (CallSender.dueNow). False, changing
       * nothing, when the process does not wait at that call or has no attempt to send.
       */
      sendCallNow: control(async (s, input: unknown, ctx, clock) => {
        const { seq } = parse(sendCallNowInput, input);
        const store = new ProcessStore(ctx);
        const record = await store.getProcess(ctx.key);
        if (record?.status !== 'waiting') return false;
        await syncCalls(store, record, clock.now());
        const progress = (await store.listCallProgress(ctx.key)).find((p) => p.seq === seq);
        if (!progress) return false;
        if (progress.due !== null && progress.due > clock.now())
          await store.putCallProgress(ctx.key, { ...progress, due: clock.now() });
        return (await sendDueCalls(ctx, store, s, clock, calls)) > 0;
      }),
      /** An event for this process (from the event index); how many of its waits it woke. */
      event: control(
        async (s, input: unknown, ctx) => {
          const { name, payload } = parse(eventInput, input);
          return s.deliverEvent(name, payload, ctx.key);
        },
        { ingressPrivate: true },
      ),
      human: control(async (s, input: unknown, ctx) => {
        const { node, input: answer, trigger } = parse(humanInput, input);
        return viewOf(await s.submitHuman(ctx.key, node, answer, trigger));
      }),
      setContext: control(async (s, input: unknown, ctx) => {
        const { path, value } = parse(setContextInput, input);
        await s.setContext(ctx.key, path, value);
        return viewOf(await s.mustGet(ctx.key));
      }),
      /** The whole context replaced (compare-and-set on its version), as the workbench edits it. */
      replaceContext: control(async (s, input: unknown, ctx) => {
        const { value } = parse(replaceContextInput, input);
        await s.replaceContext(ctx.key, value);
        return viewOf(await s.mustGet(ctx.key));
      }),
      /** Fires the process's next timer now (the workbench's "Wake now"). */
      wakeNow: control(async (s, _input: unknown, ctx) => viewOf(await s.wakeNow(ctx.key))),
      stop: control(async (s, _input: unknown, ctx) => viewOf(await s.stop(ctx.key))),
      resume: control(async (s, _input: unknown, ctx) => viewOf(await s.resume(ctx.key))),
      retry: control(async (s, _input: unknown, ctx) => viewOf(await s.retry(ctx.key))),
      resolve: control(async (s, input: unknown, ctx) => {
        const { choice } = parse(resolveInput, input);
        return viewOf(await s.resolve(ctx.key, choice));
      }),

      record: restate.handlers.object.shared(
        { ingressPrivate: true },
        async (ctx: restate.ObjectSharedContext): Promise<ProcessRecord | null> =>
          ctx.get<ProcessRecord>('record'),
      ),
      journal: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext) => {
        if ((await ctx.get<ProcessRecord>('record')) === null) throw unknown(ctx.key);
        return new ProcessStore(ctx).journal(ctx.key);
      }),
      /** What a caller waiting for the process to come to rest asks: read from state alone. */
      rest: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext): Promise<ProcessRest | null> => {
          const record = await ctx.get<ProcessRecord>('record');
          if (!record) return null;
          return {
            status: record.status,
            due: record.due,
            events: (await ctx.get<string[]>('events')) ?? [],
            callDue: record.status === 'waiting' ? await nextCallDue(ctx) : null,
          };
        },
      ),
      /**
       * Everything the workbench's inspector reads of the process, in one call
       * (web/runtime/remoteRuntime.ts; docs/restate.md, "The workbench attached to a server").
       */
      reading: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext, input: unknown): Promise<ProcessReadingView> => {
          const checked = checkInput(readingInput, input ?? null);
          if (!checked.ok)
            throw new restate.TerminalError(checked.errors.join('\n'), { errorCode: 400 });
          const record = await ctx.get<ProcessRecord>('record');
          if (!record) throw unknown(ctx.key);
          const store = new ProcessStore(ctx);
          const supervisor = supervisorFor(ctx, invocationClock(await ctx.date.now()));
          const context = await store.getContext(record.contextId);
          const changes = await store.contextChanges(record.contextId);
          const page = await store.journalPage(ctx.key, checked.value?.journalLimit ?? 100);
          const flows = await supervisor.sleptOn(record);
          const calls = await supervisor.callProgress(ctx.key);
          return {
            record,
            context: { version: context?.version ?? 0, value: context?.value ?? null },
            changes,
            journal: page.entries.reverse(),
            journalMore: page.more,
            flows: Object.fromEntries(flows),
            calls,
          };
        },
      ),
      status: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext): Promise<ProcessStatusReport> => {
          const record = await ctx.get<ProcessRecord>('record');
          if (!record) throw unknown(ctx.key);
          const report = (
            await reportProcesses(supervisorFor(ctx, invocationClock(await ctx.date.now())))
          )[ctx.key]!;
          const context = await ctx.objectClient(CONTEXT, record.contextId).get();
          return {
            id: ctx.key,
            ...report,
            contextId: record.contextId,
            contextVersion: context?.version ?? 0,
            journalLength: (await ctx.get<number>('journalLength')) ?? 0,
            events: (await ctx.get<string[]>('events')) ?? [],
            callProgress: await callProgressOf(ctx, record),
          };
        },
      ),
    },
  });

/** Without `flow serve`'s settings: no origin allowed, no secret (the types' check, tests). */
export const processObject = processObjectWith(NO_CALLS);

/** The stored progress of each call the process waits at, named by its node. */
async function callProgressOf(
  ctx: restate.ObjectSharedContext,
  record: ProcessRecord,
): Promise<ProcessStatusReport['callProgress']> {
  const waits = callWaitsOf(record.snapshot);
  return (await new ProcessStore(ctx).listCallProgress(ctx.key)).flatMap((p) => {
    const wait = waits.find((w) => w.seq === p.seq);
    if (!wait) return [];
    return [
      {
        node: wait.node,
        attempts: p.attempts,
        next: p.due === null ? null : new Date(p.due).toISOString(),
        ...(p.last ? { last: p.last } : {}),
      },
    ];
  });
}

/** When the process's next call attempt is due, from its stored progress (null: none). */
async function nextCallDue(ctx: restate.ObjectSharedContext): Promise<number | null> {
  const rows = await new ProcessStore(ctx).listCallProgress(ctx.key);
  const now = await ctx.date.now();
  let next: number | null = null;
  for (const p of rows) {
    const due = p.due ?? now;
    if (next === null || due < next) next = due;
  }
  return next;
}

/**
 * processRef.ts writes out the handlers the other objects call (so their modules need not import
 * this one); this fails to compile when a handler here no longer matches what is written there.
 */
export type CallsMatch = Matches<
  Pick<restate.VirtualObject<typeof processObject>, keyof ProcessCalls>,
  ProcessCalls
>;
type Matches<Actual extends Expected, Expected> = Actual;

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
import { noteRow } from './noteRow.ts';
import { ProcessMetaState } from './processMeta.ts';
import { ObjectState } from './objectState.ts';
import { ProcessStore } from './processStore.ts';
import { PROCESS, type ProcessCalls, type ProcessRest } from './processRef.ts';
import { EVENTS, WAKER } from './refs.ts';

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
  store: ProcessStore,
  ctx: restate.ObjectSharedContext,
  clock: { now(): number },
): Supervisor {
  return new Supervisor(
    store,
    { now: () => clock.now() },
    {
      newId: (kind) => {
        const id = `${kind}-${ctx.rand.uuidv4()}`;
        if (kind === 'context') store.madeId(id);
        return id;
      },
      // Attempts run in the `calls` handler as journaled side effects (callAttempts.ts): the
      // supervisor's own loop would leave them running past the handler.
      sendsCalls: false,
    },
  );
}

/**
 * After every control: a timer becomes one delayed call, at the due time, to the process's own
 * `tick`, or, once its context is known to be shared (contextShared), to the waker of its
 * context, which ticks the processes of that context one at a time (contextWaker.ts); and the
 * event index learns which names the process now waits for. There is at most one such call per
 * process: when the due time moves (an event or a form answered the wait first) or the process
 * no longer waits (done, stopped, failed, resolved), the call scheduled before is cancelled by
 * its invocation id, so wakes that are no longer needed do not pile up on the server.
 */
async function settle(
  ctx: restate.ObjectContext,
  store: ProcessStore,
  supervisor: Supervisor,
  clock: InvocationClock,
  fired: Fired,
): Promise<void> {
  const { state, meta } = store;
  const record = await state.get<ProcessRecord>('record');
  if (!record) return;
  await noteRow(ctx, meta, record, clock.now());
  const waiting = record.status === 'waiting';
  const shared = (await meta.get('contextShared')) === true;
  await schedule(
    ctx,
    meta,
    'tick',
    fired.tick,
    waiting && record.due !== null ? record.due : null,
    (delay, at) =>
      shared
        ? ctx
            .objectSendClient(WAKER, record.contextId)
            .wake({ process: ctx.key, at }, restate.rpc.sendOpts({ delay }))
        : ctx.objectSendClient(PROCESS, ctx.key).tick({ at }, restate.rpc.sendOpts({ delay })),
  );
  // A call's next attempt: a delayed call to this process's own `calls` handler, not through
  // the context's waker, which would hold every process of the context while a request is out.
  const callDue = await syncCalls(store, record, clock.now());
  await schedule(ctx, meta, 'call', fired.call, callDue, (delay, at) =>
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
  const before = (await meta.get('events')) ?? [];
  for (const n of names)
    if (!before.includes(n))
      ctx.objectSendClient(EVENTS, n).wait({ process: ctx.key, created: record.created });
  for (const n of before) if (!names.includes(n)) ctx.objectSendClient(EVENTS, n).unwait(ctx.key);
  await meta.set('events', names.length > 0 ? names : undefined);
}

/**
 * Which delayed call of each kind this invocation is: the one scheduled for the due time now
 * firing (its slot is then free, so the settle after it schedules the next due time afresh).
 */
interface Fired {
  tick: boolean;
  call: boolean;
}

/**
 * Keeps one delayed call of a kind (`tick`, `call`) scheduled for the due time `wanted`, or
 * none: the one scheduled before for another time is cancelled by its invocation id. `fired`:
 * the one scheduled is the call now running, which has nothing left to cancel. The delay is
 * counted from the time now, read again (journaled): counted from the invocation's start, the
 * timer would fall due late by however long the handler took (its calls included).
 */
async function schedule(
  ctx: restate.ObjectContext,
  meta: ProcessMetaState,
  kind: 'tick' | 'call',
  fired: boolean,
  wanted: number | null,
  send: (delay: number, at: number) => { invocationId: Promise<string> },
): Promise<void> {
  const slot = await meta.get(kind);
  if (!fired && wanted === (slot?.at ?? null)) return;
  if (!fired && slot) ctx.cancel(restate.InvocationIdParser.fromString(slot.invocation));
  if (wanted === null) return meta.set(kind, undefined);
  const handle = send(Math.max(0, wanted - (await ctx.date.now())), wanted);
  await meta.set(kind, { at: wanted, invocation: String(await handle.invocationId) });
}

/**
 * Whether a delayed call now running is the one scheduled (for the due time kept): a call for
 * an older due time (one whose cancellation came too late) leaves the scheduled one alone, and
 * what it runs finds nothing due, as the clock is the invocation's.
 */
async function isScheduled(
  meta: ProcessMetaState,
  kind: 'tick' | 'call',
  at: number | undefined,
): Promise<boolean> {
  return at === undefined || at === (await meta.get(kind))?.at;
}

/**
 * Before a process stands on the context of `owner` (a start sharing it, a fork): the owner moves
 * it into a context object if it kept it as its own (processContexts.ts). Only an owner whose
 * record is stored is asked: its start is then past asking anyone this, so two starts sharing
 * each other's context at once cannot wait on each other (each would hold its own process while
 * asking the other's); one that does not exist yet is refused by the supervisor, as before.
 */
async function shareFirst(
  ctx: restate.ObjectContext,
  store: ProcessStore,
  owner: string,
  input: { sharer: boolean },
): Promise<void> {
  if (owner === ctx.key || (await store.getProcess(owner)) === undefined) return;
  await ctx.objectClient(PROCESS, owner).shareContext(input);
}

/** What a control's handler is given, besides its input. */
interface Invocation {
  supervisor: Supervisor;
  ctx: restate.ObjectContext;
  store: ProcessStore;
  clock: InvocationClock;
  /** Which scheduled call this invocation is (`tick` and `calls` say; no one else is). */
  fired: Fired;
}

/**
 * An exclusive handler that runs the supervisor. A refusal (SupervisorError: nothing was
 * changed) becomes a TerminalError, so Restate answers the caller with it instead of retrying;
 * any other error is Restate's to retry, replaying what was already recorded.
 */
function control<I, O>(
  run: (supervisor: Supervisor, input: I, invocation: Invocation) => Promise<O>,
  { ingressPrivate, creates = false }: { ingressPrivate?: boolean; creates?: boolean } = {},
) {
  return restate.handlers.object.exclusive(
    ingressPrivate === undefined ? {} : { ingressPrivate },
    async (ctx: restate.ObjectContext, input: I): Promise<O> => {
      const state = new ObjectState(ctx);
      // Asked first, so that an unknown process is a 404 as for status, not the supervisor's 400.
      if (!creates && (await state.get<ProcessRecord>('record')) === null) throw unknown(ctx.key);
      const clock = invocationClock(await ctx.date.now());
      // One store for the whole invocation: each state key, flow and context read once.
      const store = new ProcessStore(ctx, {
        state,
        createdAt: () => clock.now() * 1000 + Math.floor(ctx.rand.random() * 1000),
      });
      const supervisor = supervisorFor(store, ctx, clock);
      const invocation: Invocation = {
        supervisor,
        ctx,
        store,
        clock,
        fired: { tick: false, call: false },
      };
      let result: O;
      try {
        result = await run(supervisor, input, invocation);
      } catch (e) {
        if (!(e instanceof SupervisorError)) throw e;
        await settle(ctx, store, supervisor, clock, invocation.fired);
        store.flush();
        throw new restate.TerminalError(e.message, { errorCode: 400 });
      }
      await settle(ctx, store, supervisor, clock, invocation.fired);
      store.flush();
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
        async (s, input: unknown, { ctx, store }) => {
          const { flow, context, shareContextWith } = parse(startInput, input);
          if (shareContextWith !== undefined)
            await shareFirst(ctx, store, shareContextWith, { sharer: true });
          const started = await s.start(flow, {
            id: ctx.key,
            ...(context !== undefined ? { context } : {}),
            ...(shareContextWith !== undefined ? { shareContextWith } : {}),
          });
          // Its context is another's too: its timers go through the context's waker.
          if (shareContextWith !== undefined) await store.meta.set('contextShared', true);
          return viewOf(started);
        },
        { creates: true },
      ),
      /**
       * The workbench's "Fork from here", sent to the new process's key: it starts at the position
       * journal entry `seq` of `from` kept (fork.ts), on a copy of the context as of then or on the
       * live one, and runs until it waits, as a start does.
       */
      fork: control(
        async (s, input: unknown, { ctx, store }) => {
          const { from, seq, context } = parse(forkInput, input);
          // The context it forks from is read from a context object (its changes, or itself).
          await shareFirst(ctx, store, from, { sharer: context === 'live' });
          const forked = await s.fork(from, { seq, context, id: ctx.key });
          if (context === 'live') await store.meta.set('contextShared', true);
          return viewOf(forked.status === 'running' ? await s.drive(ctx.key) : forked);
        },
        { creates: true },
      ),
      /**
       * Moves its own context into a context object before another process stands on it (a
       * start sharing it, a fork); `sharer`: that process will write it too.
       */
      shareContext: restate.handlers.object.exclusive(
        { ingressPrivate: true },
        async (ctx: restate.ObjectContext, input: { sharer: boolean }): Promise<void> => {
          const store = new ProcessStore(ctx);
          if ((await store.getProcess(ctx.key)) === undefined) return;
          await store.contexts.share(input.sharer);
          store.flush();
        },
      ),
      /** A delayed call at a due time: fires whatever is due by now, as wakeDue does. */
      tick: control(
        async (s, input: { at?: number } | null, { store, fired }) => {
          // The call scheduled for the due time now firing frees its slot, so that the settle
          // after this wake schedules the next due time afresh. A call for an older due time (one
          // whose cancellation came too late) leaves the scheduled one alone; its wake finds
          // nothing due, as the clock is the invocation's.
          fired.tick = await isScheduled(store.meta, 'tick', input?.at);
          return s.wakeDue();
        },
        { ingressPrivate: true },
      ),
      /** A delayed call at a call's due time: sends the attempts due by now (callAttempts.ts). */
      calls: control(
        async (s, input: { at?: number } | null, { ctx, store, clock, fired }) => {
          fired.call = await isScheduled(store.meta, 'call', input?.at);
          return sendDueCalls(ctx, store, s, clock, calls);
        },
        { ingressPrivate: true },
      ),
      /**
       * The workbench's "Send next attempt now": the next attempt of call wait `seq` falls due
       * now and is sent, as the browser's sender does (CallSender.dueNow). False, changing
       * nothing, when the process does not wait at that call or has no attempt to send.
       */
      sendCallNow: control(async (s, input: unknown, { ctx, store, clock }) => {
        const { seq } = parse(sendCallNowInput, input);
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
        async (s, input: unknown, { ctx }) => {
          const { name, payload } = parse(eventInput, input);
          return s.deliverEvent(name, payload, ctx.key);
        },
        { ingressPrivate: true },
      ),
      human: control(async (s, input: unknown, { ctx }) => {
        const { node, input: answer, trigger } = parse(humanInput, input);
        return viewOf(await s.submitHuman(ctx.key, node, answer, trigger));
      }),
      setContext: control(async (s, input: unknown, { ctx }) => {
        const { path, value } = parse(setContextInput, input);
        await s.setContext(ctx.key, path, value);
        return viewOf(await s.mustGet(ctx.key));
      }),
      /** The whole context replaced (compare-and-set on its version), as the workbench edits it. */
      replaceContext: control(async (s, input: unknown, { ctx }) => {
        const { value } = parse(replaceContextInput, input);
        await s.replaceContext(ctx.key, value);
        return viewOf(await s.mustGet(ctx.key));
      }),
      /** Fires the process's next timer now (the workbench's "Wake now"). */
      wakeNow: control(async (s, _input: unknown, { ctx }) => viewOf(await s.wakeNow(ctx.key))),
      stop: control(async (s, _input: unknown, { ctx }) => viewOf(await s.stop(ctx.key))),
      resume: control(async (s, _input: unknown, { ctx }) => viewOf(await s.resume(ctx.key))),
      retry: control(async (s, _input: unknown, { ctx }) => viewOf(await s.retry(ctx.key))),
      resolve: control(async (s, input: unknown, { ctx }) => {
        const { choice } = parse(resolveInput, input);
        return viewOf(await s.resolve(ctx.key, choice));
      }),

      record: restate.handlers.object.shared(
        { ingressPrivate: true },
        async (ctx: restate.ObjectSharedContext): Promise<ProcessRecord | null> =>
          ctx.get<ProcessRecord>('record'),
      ),
      journal: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext) => {
        const store = new ProcessStore(ctx, { shared: true });
        if ((await store.getProcess(ctx.key)) === undefined) throw unknown(ctx.key);
        return store.journal(ctx.key);
      }),
      /** What a caller waiting for the process to come to rest asks: read from state alone. */
      rest: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext): Promise<ProcessRest | null> => {
          const store = new ProcessStore(ctx, { shared: true });
          const record = await store.getProcess(ctx.key);
          if (!record) return null;
          return {
            status: record.status,
            due: record.due,
            events: (await store.meta.get('events')) ?? [],
            callDue: record.status === 'waiting' ? await nextCallDue(ctx, store) : null,
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
          const store = new ProcessStore(ctx, { shared: true });
          const supervisor = supervisorFor(store, ctx, invocationClock(await ctx.date.now()));
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
          const store = new ProcessStore(ctx, { shared: true });
          const record = await store.getProcess(ctx.key);
          if (!record) throw unknown(ctx.key);
          const report = (
            await reportProcesses(supervisorFor(store, ctx, invocationClock(await ctx.date.now())))
          )[ctx.key]!;
          const context = await store.getContext(record.contextId);
          return {
            id: ctx.key,
            ...report,
            contextId: record.contextId,
            contextVersion: context?.version ?? 0,
            journalLength: (await store.meta.get('journalLength')) ?? 0,
            events: (await store.meta.get('events')) ?? [],
            callProgress: await callProgressOf(store, record),
          };
        },
      ),
    },
  });

/** Without `flow serve`'s settings: no origin allowed, no secret (the types' check, tests). */
export const processObject = processObjectWith(NO_CALLS);

/** The stored progress of each call the process waits at, named by its node. */
async function callProgressOf(
  store: ProcessStore,
  record: ProcessRecord,
): Promise<ProcessStatusReport['callProgress']> {
  const waits = callWaitsOf(record.snapshot);
  return (await store.listCallProgress(record.id)).flatMap((p) => {
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
async function nextCallDue(
  ctx: restate.ObjectSharedContext,
  store: ProcessStore,
): Promise<number | null> {
  const rows = await store.listCallProgress(ctx.key);
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

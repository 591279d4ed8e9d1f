import * as restate from '@restatedev/restate-sdk';
import type { z } from 'zod';
import { waitsWithTriggers } from '../engine/step.ts';
import { reportProcesses, type ProcessReport } from '../report/processReport.ts';
import type { ProcessRecord } from '../supervisor/records.ts';
import { Supervisor, SupervisorError } from '../supervisor/supervisor.ts';
import {
  checkInput,
  eventInput,
  humanInput,
  resolveInput,
  setContextInput,
  startInput,
} from './processInput.ts';
import { ProcessStore } from './processStore.ts';
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
};

const viewOf = (r: ProcessRecord): ProcessView => ({
  id: r.id,
  flow: r.flow,
  status: r.status,
  error: r.error,
  due: r.due === null ? null : new Date(r.due).toISOString(),
});

/**
 * The supervisor of this one process, inside its handler. Its clock is the invocation's time,
 * read once through Restate (so a replay sees the same time) and passed to the engine as data;
 * new context ids come from Restate's deterministic random source for the same reason.
 */
function supervisorFor(
  ctx: restate.ObjectContext | restate.ObjectSharedContext,
  now: number,
): Supervisor {
  return new Supervisor(
    new ProcessStore(ctx),
    { now: () => now },
    { newId: (kind) => `${kind}-${ctx.rand.uuidv4()}` },
  );
}

/**
 * After every control: a timer becomes a delayed call (once per due time) to the waker of the
 * process's context, which ticks the process (contextWaker.ts), and the event index learns which
 * names the process now waits for.
 */
async function settle(ctx: restate.ObjectContext, supervisor: Supervisor): Promise<void> {
  const record = await ctx.get<ProcessRecord>('record');
  if (!record) return;
  const waiting = record.status === 'waiting';
  if (waiting && record.due !== null && record.due !== (await ctx.get<number>('tickAt'))) {
    const delay = Math.max(0, record.due - (await ctx.date.now()));
    ctx.objectSendClient(WAKER, record.contextId).wake(ctx.key, restate.rpc.sendOpts({ delay }));
    ctx.set('tickAt', record.due);
  }
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
 * An exclusive handler that runs the supervisor. A refusal (SupervisorError: nothing was
 * changed) becomes a TerminalError, so Restate answers the caller with it instead of retrying;
 * any other error is Restate's to retry, replaying what was already recorded.
 */
function control<I, O>(
  run: (supervisor: Supervisor, input: I, ctx: restate.ObjectContext) => Promise<O>,
  options: { ingressPrivate?: boolean } = {},
) {
  return restate.handlers.object.exclusive(
    options,
    async (ctx: restate.ObjectContext, input: I): Promise<O> => {
      const supervisor = supervisorFor(ctx, await ctx.date.now());
      let result: O;
      try {
        result = await run(supervisor, input, ctx);
      } catch (e) {
        if (!(e instanceof SupervisorError)) throw e;
        await settle(ctx, supervisor);
        throw new restate.TerminalError(e.message, { errorCode: 400 });
      }
      await settle(ctx, supervisor);
      return result;
    },
  );
}

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const checked = checkInput(schema, input);
  if (!checked.ok) throw new SupervisorError(checked.errors.join('\n'));
  return checked.value;
}

/**
 * A process, keyed by its id: its record (status, snapshot, due time, versions) and its journal
 * are this object's state, and every control runs the browser's supervisor on it.
 */
export const processObject = restate.object({
  name: 'process',
  handlers: {
    start: control(async (s, input: unknown, ctx) => {
      const { flow, context, shareContextWith } = parse(startInput, input);
      return viewOf(
        await s.start(flow, {
          id: ctx.key,
          ...(context !== undefined ? { context } : {}),
          ...(shareContextWith !== undefined ? { shareContextWith } : {}),
        }),
      );
    }),
    /** A delayed call at a due time: fires whatever is due by now, as wakeDue does. */
    tick: control(
      async (s, _input: unknown, ctx) => {
        // Cleared first: the settle after this wake schedules the next due time afresh.
        ctx.clear('tickAt');
        return s.wakeDue();
      },
      { ingressPrivate: true },
    ),
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
    journal: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext) =>
      new ProcessStore(ctx).journal(ctx.key),
    ),
    /** What a caller waiting for the process to come to rest asks: read from state alone. */
    rest: restate.handlers.object.shared(
      async (
        ctx: restate.ObjectSharedContext,
      ): Promise<{
        status: ProcessRecord['status'];
        due: number | null;
        events: string[];
      } | null> => {
        const record = await ctx.get<ProcessRecord>('record');
        if (!record) return null;
        return {
          status: record.status,
          due: record.due,
          events: (await ctx.get<string[]>('events')) ?? [],
        };
      },
    ),
    status: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<ProcessStatusReport> => {
        const record = await ctx.get<ProcessRecord>('record');
        if (!record) throw new restate.TerminalError(`there is no process "${ctx.key}"`);
        const report = (await reportProcesses(supervisorFor(ctx, await ctx.date.now())))[ctx.key]!;
        const context = await ctx.objectClient(CONTEXT, record.contextId).get();
        return {
          id: ctx.key,
          ...report,
          contextId: record.contextId,
          contextVersion: context?.version ?? 0,
          journalLength: (await ctx.get<number>('journalLength')) ?? 0,
          events: (await ctx.get<string[]>('events')) ?? [],
        };
      },
    ),
  },
});

import * as restate from '@restatedev/restate-sdk';
import { PROCESS } from './processRef.ts';

/**
 * Who waits for an event, keyed by the event's name: an index kept by the processes themselves
 * (each sends `wait` and `unwait` as its waits change), so that an event reaches its waiters
 * without reading every process. An entry may be stale (the process has since moved on); the
 * process then takes nothing from the event, as the supervisor checks its waits on delivery.
 */
export const eventIndex = restate.object({
  name: 'events',
  handlers: {
    wait: restate.handlers.object.exclusive(
      { ingressPrivate: true },
      async (ctx: restate.ObjectContext, input: { process: string; created: number }) => {
        const waiting = (await ctx.get<Record<string, number>>('waiting')) ?? {};
        ctx.set('waiting', { ...waiting, [input.process]: input.created });
      },
    ),
    unwait: restate.handlers.object.exclusive(
      { ingressPrivate: true },
      async (ctx: restate.ObjectContext, process: string) => {
        const waiting = (await ctx.get<Record<string, number>>('waiting')) ?? {};
        if (!Object.hasOwn(waiting, process)) return;
        const { [process]: _gone, ...rest } = waiting;
        ctx.set('waiting', rest);
      },
    ),
    /**
     * Delivers the event to every process waiting for it now, oldest first, or only to `to`
     * (docs/format.md#scenarios: an event nobody waits for is dropped). Returns how many waits it woke.
     */
    emit: restate.handlers.object.exclusive(
      async (
        ctx: restate.ObjectContext,
        input: { payload?: unknown; to?: string } | null,
      ): Promise<{ delivered: number }> => {
        const payload = input?.payload;
        if (input?.to !== undefined) {
          if (typeof input.to !== 'string')
            throw new restate.TerminalError('to: must be a process id', { errorCode: 400 });
          const delivered = await ctx
            .objectClient(PROCESS, input.to)
            .event({ name: ctx.key, payload });
          return { delivered };
        }
        const waiting = (await ctx.get<Record<string, number>>('waiting')) ?? {};
        const order = Object.entries(waiting).sort((a, b) => a[1] - b[1]);
        let delivered = 0;
        for (const [process] of order)
          delivered += await ctx.objectClient(PROCESS, process).event({ name: ctx.key, payload });
        return { delivered };
      },
    ),
    waiting: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<string[]> =>
        Object.keys((await ctx.get<Record<string, number>>('waiting')) ?? {}),
    ),
  },
});

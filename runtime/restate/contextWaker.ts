import * as restate from '@restatedev/restate-sdk';
import { PROCESS } from './processRef.ts';

/**
 * Where a process's timer goes when it falls due, keyed by the process's context id: its one
 * exclusive handler hands the tick to the process and waits for the wake to finish, so the
 * processes sharing a context wake one after another, in the order their timers fell due, as
 * the browser's wakeDue wakes them. Without it, the ten processes of a context that fall due in
 * the same instant all read the context, one commits, and nine run their step again.
 *
 * It is an object of its own, not a handler of the context: a wake calls the context's
 * exclusive `commit`, which a handler of the context waiting on that wake would block.
 */
export const contextWaker = restate.object({
  name: 'waker',
  handlers: {
    wake: restate.handlers.object.exclusive(
      { ingressPrivate: true },
      async (
        ctx: restate.ObjectContext,
        input: { process: string; at: number } | string,
      ): Promise<void> => {
        // A bare process id is what a call scheduled before wakes carried their due time was.
        if (typeof input === 'string') await ctx.objectClient(PROCESS, input).tick({});
        else await ctx.objectClient(PROCESS, input.process).tick({ at: input.at });
      },
    ),
  },
});

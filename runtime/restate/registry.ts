import * as restate from '@restatedev/restate-sdk';

/**
 * Every process, in order of creation, and every deployed flow's id (key `all`). The order is the supervisor's `created`,
 * which the browser runtime uses to deliver an event to the oldest waiting process first.
 */
export const registry = restate.object({
  name: 'registry',
  handlers: {
    /** The process's creation number; the same number when asked again for the same process. */
    register: restate.handlers.object.exclusive(
      { ingressPrivate: true },
      async (ctx: restate.ObjectContext, process: string): Promise<number> => {
        const known = await ctx.get<number>(`process:${process}`);
        if (known !== null) return known;
        const count = (await ctx.get<number>('count')) ?? 0;
        ctx.set(`process:${process}`, count);
        ctx.set(`at:${count}`, process);
        ctx.set('count', count + 1);
        return count;
      },
    ),
    /** Notes a deployed flow's id, once, for `flow flows`. */
    addFlow: restate.handlers.object.exclusive(
      { ingressPrivate: true },
      async (ctx: restate.ObjectContext, flow: string): Promise<void> => {
        const flows = (await ctx.get<string[]>('flows')) ?? [];
        if (!flows.includes(flow)) ctx.set('flows', [...flows, flow].sort());
      },
    ),
    flows: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<string[]> =>
        (await ctx.get<string[]>('flows')) ?? [],
    ),
    list: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<string[]> => {
        const count = (await ctx.get<number>('count')) ?? 0;
        const out: string[] = [];
        for (let i = 0; i < count; i++) {
          const id = await ctx.get<string>(`at:${i}`);
          if (id !== null) out.push(id);
        }
        return out;
      },
    ),
  },
});

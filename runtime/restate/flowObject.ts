import * as restate from '@restatedev/restate-sdk';
import type { Flow } from '../../shared/schema.ts';

/**
 * A flow by id: its current version (what `deploy` stored last) and every version a process was
 * started or continued on, by signature, so that `keep` and the flow-changed diff find the
 * version a process stands on whatever was deployed since.
 */
export const flowObject = restate.object({
  name: 'flow',
  handlers: {
    /** Only `wakeflow/deploy` stores a flow: it checks the file first, as `flow validate` does. */
    put: restate.handlers.object.exclusive(
      { ingressPrivate: true },
      async (ctx: restate.ObjectContext, flow: Flow): Promise<void> => {
        ctx.set('current', flow);
      },
    ),
    keepVersion: restate.handlers.object.exclusive(
      { ingressPrivate: true },
      async (ctx: restate.ObjectContext, input: { flow: Flow; signature: string }) => {
        const key = `version:${input.signature}`;
        // A signature fixes what runs; the first copy kept is as good as any later one.
        if ((await ctx.get<Flow>(key)) === null) ctx.set(key, input.flow);
      },
    ),
    current: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<Flow | null> => ctx.get<Flow>('current'),
    ),
    version: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext, signature: string): Promise<Flow | null> =>
        ctx.get<Flow>(`version:${signature}`),
    ),
  },
});

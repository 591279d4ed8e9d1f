import * as restate from '@restatedev/restate-sdk';
import type { Flow } from '../../shared/schema.ts';
import { signature } from '../../shared/signature.ts';

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
        if ((await ctx.get<Flow>(key)) !== null) return;
        ctx.set(key, input.flow);
        ctx.set('versions', [...((await ctx.get<string[]>('versions')) ?? []), input.signature]);
      },
    ),
    current: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<Flow | null> => ctx.get<Flow>('current'),
    ),
    /** `flow flows`: the deployed version's signature and every version processes stand on. */
    summary: restate.handlers.object.shared(
      async (
        ctx: restate.ObjectSharedContext,
      ): Promise<{ id: string; signature: string | null; versions: string[] }> => {
        const current = await ctx.get<Flow>('current');
        return {
          id: ctx.key,
          signature: current === null ? null : signature(current),
          versions: (await ctx.get<string[]>('versions')) ?? [],
        };
      },
    ),
    version: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext, signature: string): Promise<Flow | null> =>
        ctx.get<Flow>(`version:${signature}`),
    ),
  },
});

import * as restate from '@restatedev/restate-sdk';
import type { Flow } from '../../shared/schema.ts';
import { signature } from '../../shared/signature.ts';

/** What a process reads of a flow on every wake (`read`). */
export interface FlowRead {
  /** The version deployed last, or null when there is no such flow. */
  flow: Flow | null;
  /** Whether that version is kept already (`version:<signature>`), so a start need not keep it. */
  kept: boolean;
}

/**
 * A flow by id: its current version (what `deploy` stored last) and every version deployed or
 * continued on, by signature, so that `keep` and the flow-changed diff find the version a
 * process stands on whatever was deployed since.
 */
export const flowObject = restate.object({
  name: 'flow',
  handlers: {
    /**
     * Only `wakeflow/deploy` stores a flow: it checks the file first, as `flow validate` does.
     * The version deployed is kept at once, so that no start has to keep it (starts of a flow
     * just deployed each did, one at a time on this object).
     */
    put: restate.handlers.object.exclusive(
      { ingressPrivate: true },
      async (ctx: restate.ObjectContext, flow: Flow): Promise<void> => {
        const kept = signature(flow);
        ctx.set('current', flow);
        ctx.set('currentSignature', kept);
        await keep(ctx, flow, kept);
        ctx.set('currentKept', true);
      },
    ),
    keepVersion: restate.handlers.object.exclusive(
      { ingressPrivate: true },
      async (ctx: restate.ObjectContext, input: { flow: Flow; signature: string }) => {
        await keep(ctx, input.flow, input.signature);
        if (input.signature === (await currentSignature(ctx))) ctx.set('currentKept', true);
      },
    ),
    current: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<Flow | null> => ctx.get<Flow>('current'),
    ),
    /** The current version and whether it is kept: what a process reads once per invocation. */
    read: restate.handlers.object.shared(
      async (ctx: restate.ObjectSharedContext): Promise<FlowRead> => ({
        flow: await ctx.get<Flow>('current'),
        kept: (await ctx.get<boolean>('currentKept')) === true,
      }),
    ),
    /** `flow flows`: the deployed version's signature and every version kept. */
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

/** Keeps a version by its signature, once: a signature fixes what runs, so any copy will do. */
async function keep(ctx: restate.ObjectContext, flow: Flow, kept: string): Promise<void> {
  const key = `version:${kept}`;
  if ((await ctx.get<Flow>(key)) !== null) return;
  ctx.set(key, flow);
  ctx.set('versions', [...((await ctx.get<string[]>('versions')) ?? []), kept]);
}

/** The current version's signature: kept by `put`, computed for a flow stored before it was. */
async function currentSignature(ctx: restate.ObjectContext): Promise<string | null> {
  const known = await ctx.get<string>('currentSignature');
  if (known !== null) return known;
  const current = await ctx.get<Flow>('current');
  return current === null ? null : signature(current);
}

import * as restate from '@restatedev/restate-sdk';
import { parseFlowFile } from '../../shared/parseFlowFile.ts';
import { signature } from '../../shared/signature.ts';
import { validateCommand } from '../command/validateCommand.ts';
import type { ProcessRecord } from '../supervisor/records.ts';
import { PROCESS } from './processRef.ts';
import { FLOW, REGISTRY, REGISTRY_KEY } from './refs.ts';

/** `flow list`'s filters: statuses, a due time at or before, and where the page starts. */
export interface ListFilter {
  status?: ProcessRecord['status'][];
  dueBefore?: string;
  after?: string;
  limit?: number;
}

/** A page of `flow list`: `next` is the `after` of the next page, null on the last. */
export interface ProcessPage {
  processes: { id: string; status: string; due: string | null }[];
  next: string | null;
}

export interface FlowSummary {
  id: string;
  signature: string | null;
  versions: string[];
}

const MAX_PAGE = 500;

/**
 * The body as text, unparsed: `deploy` reads it with the same parser as `flow validate`, so a
 * syntax error is reported with its line and column, not as Restate's deserialization error.
 */
const jsonText: restate.Serde<string> = {
  contentType: 'application/json',
  serialize: (value: string) => new TextEncoder().encode(value),
  deserialize: (bytes: Uint8Array) => new TextDecoder().decode(bytes),
};

/** The ingress's entry points that belong to no one object. */
export const wakeflowService = restate.service({
  name: 'wakeflow',
  handlers: {
    /**
     * Stores a flow/1 or flows/1 file: refused, with `flow validate`'s messages and nothing
     * stored, unless every flow in it can run.
     */
    deploy: restate.handlers.handler(
      { input: jsonText },
      async (ctx: restate.Context, text: string): Promise<{ id: string; signature: string }[]> => {
        const checked = validateCommand(text);
        if (checked.code !== 0)
          throw new restate.TerminalError([...checked.out, ...checked.err].join('\n'), {
            errorCode: 400,
          });
        const parsed = parseFlowFile(text);
        if (!parsed.ok)
          throw new restate.TerminalError(parsed.errors.join('\n'), { errorCode: 400 });
        for (const flow of parsed.flows) {
          await ctx.objectClient(FLOW, flow.id).put(flow);
          await ctx.objectClient(REGISTRY, REGISTRY_KEY).addFlow(flow.id);
        }
        return parsed.flows.map((f) => ({ id: f.id, signature: signature(f) }));
      },
    ),
    /** Every process's id, oldest first. */
    processes: restate.handlers.handler({}, async (ctx: restate.Context): Promise<string[]> =>
      ctx.objectClient(REGISTRY, REGISTRY_KEY).list(),
    ),
    /** Processes in order of creation, filtered and a page at a time (`flow list`). */
    list: restate.handlers.handler(
      {},
      async (ctx: restate.Context, filter: ListFilter | null): Promise<ProcessPage> => {
        const { status, dueBefore, after, limit = 50 } = filter ?? {};
        if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
          throw new restate.TerminalError(`limit: must be a whole number from 1 to ${MAX_PAGE}`, {
            errorCode: 400,
          });
        const before = dueBefore === undefined ? undefined : Date.parse(dueBefore);
        if (before !== undefined && Number.isNaN(before))
          throw new restate.TerminalError(`due-before: not a date and time: ${dueBefore}`, {
            errorCode: 400,
          });
        const ids = await ctx.objectClient(REGISTRY, REGISTRY_KEY).list();
        const from = after === undefined ? 0 : ids.indexOf(after) + 1;
        if (after !== undefined && from === 0)
          throw new restate.TerminalError(`after: there is no process "${after}"`, {
            errorCode: 404,
          });
        const processes: ProcessPage['processes'] = [];
        for (let i = from; i < ids.length; i++) {
          if (processes.length === limit) return { processes, next: processes.at(-1)!.id };
          const rest = await ctx.objectClient(PROCESS, ids[i]!).rest();
          if (!rest) continue;
          if (status !== undefined && !status.includes(rest.status)) continue;
          if (before !== undefined && (rest.due === null || rest.due > before)) continue;
          processes.push({
            id: ids[i]!,
            status: rest.status,
            due: rest.due === null ? null : new Date(rest.due).toISOString(),
          });
        }
        return { processes, next: null };
      },
    ),
    /** Every deployed flow: the signature of what was deployed last, and the versions kept. */
    flows: restate.handlers.handler({}, async (ctx: restate.Context): Promise<FlowSummary[]> => {
      const ids = await ctx.objectClient(REGISTRY, REGISTRY_KEY).flows();
      const out: FlowSummary[] = [];
      for (const id of ids) out.push(await ctx.objectClient(FLOW, id).summary());
      return out;
    }),
  },
});

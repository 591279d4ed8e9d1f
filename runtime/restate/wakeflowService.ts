import * as restate from '@restatedev/restate-sdk';
import { parseFlowFile } from '../../shared/parseFlowFile.ts';
import { signature } from '../../shared/signature.ts';
import { validateCommand } from '../command/validateCommand.ts';
import { FLOW, REGISTRY, REGISTRY_KEY } from './refs.ts';

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
        for (const flow of parsed.flows) await ctx.objectClient(FLOW, flow.id).put(flow);
        return parsed.flows.map((f) => ({ id: f.id, signature: signature(f) }));
      },
    ),
    /** Every process's id, oldest first. */
    processes: restate.handlers.handler({}, async (ctx: restate.Context): Promise<string[]> =>
      ctx.objectClient(REGISTRY, REGISTRY_KEY).list(),
    ),
  },
});

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseJsonText } from '../../shared/jsonText.ts';
import type { CommandResult } from '../command/commandResult.ts';
import { validateCommand } from '../command/validateCommand.ts';
import { readInput } from '../command/readInput.ts';
import type { ResolveChoice } from '../supervisor/supervisor.ts';
import { registerEndpoint, serveEndpoint } from './endpoint.ts';
import { IngressClient, type Answer } from './ingressClient.ts';

type Values = Record<string, string | boolean | undefined>;
type Command = (
  positionals: string[],
  values: Values,
  api: IngressClient,
) => Promise<CommandResult>;

const ingressOption = { ingress: { type: 'string' } } as const;

interface Spec {
  /** Positional arguments: their names, for the message when one is missing. */
  args: string[];
  optionalArgs?: number;
  options?: ParseArgsConfig['options'];
  run: Command;
}

const ok = (value: unknown): CommandResult => ({
  out: [JSON.stringify(value, null, 2)],
  err: [],
  code: 0,
});

function answered<T>(name: string, answer: Answer<T>, show: (v: T) => unknown = (v) => v) {
  if (answer.ok) return ok(show(answer.value));
  return { out: [], err: answer.error.split('\n').map((l) => `${name}: ${l}`), code: 1 };
}

/** A JSON argument, or the located reason it is not JSON. */
function jsonArg(name: string, text: string): { value: unknown } | { error: string } {
  const parsed = parseJsonText(text);
  return parsed.ok ? { value: parsed.value } : { error: `${name}: ${parsed.error}` };
}

const SPECS: Record<string, Spec> = {
  deploy: {
    args: ['FILE'],
    run: async ([file], _v, api) => {
      const input = await readInput(file!);
      if ('error' in input) return { out: [], err: [input.error], code: 1 };
      // Checked here first, with the messages of `flow validate`; the server checks again.
      const checked = validateCommand(input.text);
      if (checked.code !== 0) return { ...checked, out: [], err: [...checked.out, ...checked.err] };
      return answered('deploy', await api.deploy(input.text), (flows) =>
        flows.map((f) => `${f.id} ${f.signature}`),
      );
    },
  },
  start: {
    args: ['FLOW'],
    options: {
      as: { type: 'string' },
      context: { type: 'string' },
      'share-context-with': { type: 'string' },
    },
    run: async ([flow], v, api) => {
      if (typeof v.as !== 'string')
        return { out: [], err: ['start: name the process with --as ID'], code: 2 };
      let context: unknown;
      if (typeof v.context === 'string') {
        const parsed = jsonArg('--context', v.context);
        if ('error' in parsed) return { out: [], err: [parsed.error], code: 1 };
        context = parsed.value;
      }
      const share = v['share-context-with'];
      return answered(
        'start',
        await api.start(v.as, {
          flow: flow!,
          ...(context !== undefined ? { context } : {}),
          ...(typeof share === 'string' ? { shareContextWith: share } : {}),
        }),
      );
    },
  },
  event: {
    args: ['NAME', 'PAYLOAD'],
    optionalArgs: 1,
    options: { to: { type: 'string' } },
    run: async ([name, payloadText], v, api) => {
      let payload: unknown;
      if (payloadText !== undefined) {
        const parsed = jsonArg('PAYLOAD', payloadText);
        if ('error' in parsed) return { out: [], err: [parsed.error], code: 1 };
        payload = parsed.value;
      }
      const to = typeof v.to === 'string' ? v.to : undefined;
      return answered('event', await api.event(name!, payload, to));
    },
  },
  human: {
    args: ['ID', 'NODE', 'INPUT'],
    options: { trigger: { type: 'string' } },
    run: async ([id, node, inputText], v, api) => {
      const parsed = jsonArg('INPUT', inputText!);
      if ('error' in parsed) return { out: [], err: [parsed.error], code: 1 };
      const trigger = typeof v.trigger === 'string' ? { trigger: v.trigger } : {};
      return answered(
        'human',
        await api.human(id!, { node: node!, input: parsed.value, ...trigger }),
      );
    },
  },
  status: {
    args: ['ID'],
    optionalArgs: 1,
    run: async ([id], _v, api) => {
      if (id !== undefined) return answered('status', await api.status(id));
      const ids = await api.processes();
      if (!ids.ok) return answered('status', ids);
      const out: Record<string, unknown> = {};
      for (const p of ids.value) {
        const s = await api.status(p);
        out[p] = s.ok
          ? { flow: s.value.flow, status: s.value.status, error: s.value.error }
          : s.error;
      }
      return ok(out);
    },
  },
  stop: {
    args: ['ID'],
    run: async ([id], _v, api) => answered('stop', await api.control(id!, 'stop')),
  },
  resume: {
    args: ['ID'],
    run: async ([id], _v, api) => answered('resume', await api.control(id!, 'resume')),
  },
  retry: {
    args: ['ID'],
    run: async ([id], _v, api) => answered('retry', await api.control(id!, 'retry')),
  },
  resolve: {
    args: ['ID', 'CHOICE'],
    run: async ([id, choice], _v, api) =>
      answered('resolve', await api.resolve(id!, choice as ResolveChoice)),
  },
};

/** Runs `flow NAME ...args` against a Restate server; never throws. */
export async function restateCommand(name: string, args: string[]): Promise<CommandResult> {
  if (name === 'serve') return serveCommand(args);
  const spec = Object.hasOwn(SPECS, name) ? SPECS[name] : undefined;
  if (!spec) return { out: [], err: [`unknown command "${name}"`], code: 2 };
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args,
      options: { ...ingressOption, ...spec.options },
      allowPositionals: true,
      strict: true,
    }) as { values: Values; positionals: string[] };
  } catch (e) {
    return { out: [], err: [`${name}: ${(e as Error).message}`], code: 2 };
  }
  const { positionals, values } = parsed;
  const least = spec.args.length - (spec.optionalArgs ?? 0);
  if (positionals.length < least)
    return {
      out: [],
      err: [`${name}: name ${spec.args.slice(positionals.length, least).join(' ')}`],
      code: 2,
    };
  if (positionals.length > spec.args.length)
    return {
      out: [],
      err: [`${name}: too many arguments: ${positionals.slice(spec.args.length).join(' ')}`],
      code: 2,
    };
  const base =
    (typeof values.ingress === 'string' ? values.ingress : undefined) ??
    process.env.WAKEFLOW_RESTATE_INGRESS ??
    'http://127.0.0.1:8080';
  if (!URL.canParse(base))
    return { out: [], err: [`${name}: --ingress: not a URL: ${base}`], code: 2 };
  try {
    return await spec.run(positionals, values, new IngressClient(base));
  } catch (e) {
    return { out: [], err: [`${name}: internal error: ${(e as Error).message}`], code: 70 };
  }
}

/**
 * `flow serve`: the endpoint, registered with the server's admin API, until SIGINT or SIGTERM.
 * It prints as it goes, since it runs until stopped.
 */
async function serveCommand(args: string[]): Promise<CommandResult> {
  let values: Values;
  try {
    ({ values } = parseArgs({
      args,
      options: { port: { type: 'string' }, admin: { type: 'string' } },
      strict: true,
    }) as { values: Values });
  } catch (e) {
    return { out: [], err: [`serve: ${(e as Error).message}`], code: 2 };
  }
  const port = Number(values.port ?? 9080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return { out: [], err: [`serve: --port: not a port number: ${String(values.port)}`], code: 2 };
  const admin = typeof values.admin === 'string' ? values.admin : 'http://127.0.0.1:9070';
  if (!URL.canParse(admin))
    return { out: [], err: [`serve: --admin: not a URL: ${admin}`], code: 2 };
  process.env.RESTATE_LOGGING ??= 'WARN';
  let endpoint;
  try {
    endpoint = await serveEndpoint(port);
  } catch (e) {
    return {
      out: [],
      err: [`serve: cannot listen on port ${port}: ${(e as Error).message}`],
      code: 1,
    };
  }
  try {
    await registerEndpoint(admin, endpoint.url);
  } catch (e) {
    await endpoint.close();
    return { out: [], err: [`serve: ${(e as Error).message}`], code: 1 };
  }
  process.stdout.write(`wakeflow endpoint on ${endpoint.url}, registered with ${admin}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await endpoint.close();
  return { out: [], err: [], code: 0 };
}

import { randomUUID } from 'node:crypto';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CommandResult } from '../command/commandResult.ts';
import { readInput } from '../command/readInput.ts';
import { validateCommand } from '../command/validateCommand.ts';
import { PROCESS_STATUSES, type ProcessStatus } from '../supervisor/records.ts';
import type { ResolveChoice } from '../supervisor/supervisor.ts';
import { callSettings, parseOrigins } from './callSettings.ts';
import { registerEndpoint, serveEndpoint } from './endpoint.ts';
import { IngressClient, type Answer } from './ingressClient.ts';
import { jsonArgument } from './jsonArgument.ts';

type Values = Record<string, string | boolean | undefined>;

/** What a command runs with: its client, and the idempotency key of a change. */
interface Run {
  api: IngressClient;
  /** Set for a command that changes something: sent as Restate's `idempotency-key`. */
  key: string;
  admin: string;
}
type Command = (positionals: string[], values: Values, run: Run) => Promise<CommandResult>;

const COMMON = {
  ingress: { type: 'string' },
  admin: { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface Spec {
  /** Positional arguments: their names, for the message when one is missing. */
  args: string[];
  optionalArgs?: number;
  options?: ParseArgsConfig['options'];
  /** A command that changes something: it sends an idempotency key and prints it. */
  changes?: boolean;
  /** `flow NAME --help`: what it does, after the usage line. */
  help: string[];
  run: Command;
}

const ok = (value: unknown): CommandResult => ({
  out: [JSON.stringify(value, null, 2)],
  err: [],
  code: 0,
});
const refused = (line: string, code = 1): CommandResult => ({ out: [], err: [line], code });

/**
 * The answer as the command prints it. A change also prints its idempotency key on standard
 * error, so that a script can send it again and get this answer instead of a second change.
 */
function answered<T>(
  name: string,
  answer: Answer<T>,
  run: Run | null,
  show: (v: T) => unknown = (v) => v,
): CommandResult {
  const keyLine = run ? [`${name}: idempotency key ${run.key}`] : [];
  if (answer.ok) return { ...ok(show(answer.value)), err: keyLine };
  const lines = answer.error.split('\n').map((l) => `${name}: ${l}`);
  // A refusal changed nothing; a change without an answer may still be made: its key is how
  // to send it again without making it twice.
  if (answer.status !== 0 || !run) return { out: [], err: lines, code: 1 };
  const again =
    answer.invocation === undefined
      ? keyLine
      : [
          `${name}: \`flow status\` shows it; to wait for its answer, send the same command with --idempotency-key ${run.key}`,
        ];
  return { out: [], err: [...lines, ...again], code: 1 };
}

async function json(
  name: string,
  text: string | undefined,
): Promise<{ value?: unknown } | CommandResult> {
  if (text === undefined) return {};
  const parsed = await jsonArgument(name, text);
  return 'error' in parsed ? refused(parsed.error) : parsed;
}
const isResult = (v: object): v is CommandResult => 'code' in v;

const JSON_FORMS = "JSON is inline, @FILE (a file's text) or - (standard input)";

const SPECS: Record<string, Spec> = {
  deploy: {
    args: ['FILE'],
    changes: true,
    help: ['Stores a flow/1 or flows/1 file, refused with the messages of `flow validate`.'],
    run: async ([file], _v, run) => {
      const input = await readInput(file!);
      if ('error' in input) return refused(input.error);
      // Checked here first, with the messages of `flow validate`; the server checks again.
      const checked = validateCommand(input.text);
      if (checked.code !== 0) return { ...checked, out: [], err: [...checked.out, ...checked.err] };
      return answered('deploy', await run.api.deploy(input.text, run.key), run, (flows) =>
        flows.map((f) => `${f.id} ${f.signature}`),
      );
    },
  },
  flows: {
    args: [],
    help: [
      'Every deployed flow: the signature deployed last, and the versions processes stand on.',
    ],
    run: async (_p, _v, run) => answered('flows', await run.api.flows(), null),
  },
  start: {
    args: ['FLOW'],
    changes: true,
    options: {
      as: { type: 'string' },
      context: { type: 'string' },
      'share-context-with': { type: 'string' },
    },
    help: [
      'Starts a process of FLOW named ID, on a new context or on the context of another.',
      JSON_FORMS,
    ],
    run: async ([flow], v, run) => {
      if (typeof v.as !== 'string') return refused('start: name the process with --as ID', 2);
      const context = await json('--context', v.context as string | undefined);
      if (isResult(context)) return context;
      const share = v['share-context-with'];
      return answered(
        'start',
        await run.api.start(
          v.as,
          {
            flow: flow!,
            ...(context.value !== undefined ? { context: context.value } : {}),
            ...(typeof share === 'string' ? { shareContextWith: share } : {}),
          },
          run.key,
        ),
        run,
      );
    },
  },
  event: {
    args: ['NAME', 'PAYLOAD'],
    optionalArgs: 1,
    changes: true,
    options: { to: { type: 'string' } },
    help: [
      'Delivers an event to every process waiting for it, oldest first, or only to --to ID.',
      JSON_FORMS,
    ],
    run: async ([name, payloadText], v, run) => {
      const payload = await json('PAYLOAD', payloadText);
      if (isResult(payload)) return payload;
      const to = typeof v.to === 'string' ? v.to : undefined;
      return answered('event', await run.api.event(name!, payload.value, to, run.key), run);
    },
  },
  human: {
    args: ['ID', 'NODE', 'INPUT'],
    changes: true,
    options: { trigger: { type: 'string' } },
    help: ["Answers a person's form at NODE of process ID.", JSON_FORMS],
    run: async ([id, node, inputText], v, run) => {
      const input = await json('INPUT', inputText);
      if (isResult(input)) return input;
      const trigger = typeof v.trigger === 'string' ? { trigger: v.trigger } : {};
      return answered(
        'human',
        await run.api.human(id!, { node: node!, input: input.value, ...trigger }, run.key),
        run,
      );
    },
  },
  'set-context': {
    args: ['ID', 'PATH', 'VALUE'],
    changes: true,
    help: [
      "Writes VALUE at PATH (such as order.total) of process ID's context, as the",
      'designer does to fix a failed process before `flow retry ID`.',
      JSON_FORMS,
    ],
    run: async ([id, path, valueText], _v, run) => {
      const value = await json('VALUE', valueText);
      if (isResult(value)) return value;
      return answered(
        'set-context',
        await run.api.setContext(id!, path!, value.value, run.key),
        run,
      );
    },
  },
  status: {
    args: ['ID'],
    optionalArgs: 1,
    help: ['The process as `flow simulate` reports it; without ID, every process in short.'],
    run: async ([id], _v, { api }) => {
      if (id !== undefined) return answered('status', await api.status(id), null);
      const ids = await api.processes();
      if (!ids.ok) return answered('status', ids, null);
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
  list: {
    args: [],
    options: {
      status: { type: 'string' },
      'due-before': { type: 'string' },
      after: { type: 'string' },
      limit: { type: 'string' },
    },
    help: [
      'Processes in order of creation, a page at a time: --status S[,S…] keeps those statuses,',
      '--due-before TIME those with a timer due at or before TIME (ISO 8601), --limit N (50) per',
      'page; the answer\'s "next" is the --after ID of the next page.',
    ],
    run: async (_p, v, { api }) => {
      const statuses =
        typeof v.status === 'string' ? v.status.split(',').map((x) => x.trim()) : undefined;
      const wrong = statuses?.find((x) => !(PROCESS_STATUSES as readonly string[]).includes(x));
      if (wrong !== undefined)
        return refused(
          `list: --status: "${wrong}" is not one of ${PROCESS_STATUSES.join(', ')}`,
          2,
        );
      const limit = typeof v.limit === 'string' ? Number(v.limit) : undefined;
      return answered(
        'list',
        await api.list({
          ...(statuses ? { status: statuses as ProcessStatus[] } : {}),
          ...(typeof v['due-before'] === 'string' ? { dueBefore: v['due-before'] } : {}),
          ...(typeof v.after === 'string' ? { after: v.after } : {}),
          ...(limit !== undefined ? { limit } : {}),
        }),
        null,
      );
    },
  },
  journal: {
    args: ['ID'],
    options: { follow: { type: 'boolean', short: 'f' } },
    help: [
      'The journal of process ID. With --follow, one entry a line as it is appended, until the',
      'process is done or cancelled (or Ctrl+C).',
    ],
    run: async ([id], v, { api }) => {
      if (v.follow !== true) return answered('journal', await api.journal(id!), null);
      return followJournal(api, id!);
    },
  },
  stop: {
    args: ['ID'],
    changes: true,
    help: ['Stops process ID: it does not wake until `flow resume ID`.'],
    run: async ([id], _v, run) =>
      answered('stop', await run.api.control(id!, 'stop', run.key), run),
  },
  resume: {
    args: ['ID'],
    changes: true,
    help: ['Resumes a stopped process; every timer that fell due meanwhile fires once.'],
    run: async ([id], _v, run) =>
      answered('resume', await run.api.control(id!, 'resume', run.key), run),
  },
  retry: {
    args: ['ID'],
    changes: true,
    help: ['Runs the failed node of process ID again (fix its context first: `flow set-context`).'],
    run: async ([id], _v, run) =>
      answered('retry', await run.api.control(id!, 'retry', run.key), run),
  },
  resolve: {
    args: ['ID', 'CHOICE'],
    changes: true,
    help: ['For a process whose flow changed: continue, keep, restart or cancel.'],
    run: async ([id, choice], _v, run) =>
      answered('resolve', await run.api.resolve(id!, choice as ResolveChoice, run.key), run),
  },
  cancel: {
    args: ['INVOCATION'],
    help: [
      'Cancels a queued command by the invocation id its timeout printed (inv_…), so that it does',
      'not run when the endpoint is back. (A process whose flow changed ends with',
      '`flow resolve ID cancel`.)',
    ],
    run: async ([invocation], _v, { admin }) => cancelInvocation(admin, invocation!),
  },
};

/** The line of usage of one command, from its spec. */
function usageOf(name: string, spec: Spec): string {
  const args = spec.args.map((a, i) =>
    i >= spec.args.length - (spec.optionalArgs ?? 0) ? `[${a}]` : a,
  );
  const options = Object.entries(spec.options ?? {}).map(([o, d]) =>
    d.type === 'boolean' ? `[--${o}]` : `[--${o} ${o.toUpperCase()}]`,
  );
  const common = spec.changes ? ['[--idempotency-key K]'] : [];
  return [
    'usage: flow',
    name,
    ...args,
    ...options,
    ...common,
    '[--ingress URL] [--timeout 10s]',
  ].join(' ');
}

/** `10s`, `500ms`, `2m`, or a number of seconds; undefined when it is none of these. */
export function parseTimeout(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : 1000);
  return n > 0 && n <= 86_400_000 ? Math.round(n) : undefined;
}

/** Runs `flow NAME ...args` against a Restate server; never throws. */
export async function restateCommand(name: string, args: string[]): Promise<CommandResult> {
  if (name === 'serve') return serveCommand(args);
  if (name === 'ui') return (await import('./uiCommand.ts')).uiCommand(args);
  const spec = Object.hasOwn(SPECS, name) ? SPECS[name] : undefined;
  if (!spec) return refused(`unknown command "${name}"`, 2);
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args,
      options: {
        ...COMMON,
        ...(spec.changes ? { 'idempotency-key': { type: 'string' } } : {}),
        ...spec.options,
      },
      allowPositionals: true,
      strict: true,
    }) as { values: Values; positionals: string[] };
  } catch (e) {
    return refused(`${name}: ${(e as Error).message}`, 2);
  }
  const { positionals, values } = parsed;
  if (values.help === true)
    return { out: [usageOf(name, spec), '', ...spec.help], err: [], code: 0 };
  const least = spec.args.length - (spec.optionalArgs ?? 0);
  if (positionals.length < least)
    return refused(`${name}: name ${spec.args.slice(positionals.length, least).join(' ')}`, 2);
  if (positionals.length > spec.args.length)
    return refused(
      `${name}: too many arguments: ${positionals.slice(spec.args.length).join(' ')}`,
      2,
    );
  const base =
    (typeof values.ingress === 'string' ? values.ingress : undefined) ??
    process.env.WAKEFLOW_RESTATE_INGRESS ??
    'http://127.0.0.1:8080';
  if (!URL.canParse(base)) return refused(`${name}: --ingress: not a URL: ${base}`, 2);
  const admin =
    (typeof values.admin === 'string' ? values.admin : undefined) ??
    process.env.WAKEFLOW_RESTATE_ADMIN ??
    'http://127.0.0.1:9070';
  if (!URL.canParse(admin)) return refused(`${name}: --admin: not a URL: ${admin}`, 2);
  const timeoutMs = parseTimeout(typeof values.timeout === 'string' ? values.timeout : '10s');
  if (timeoutMs === undefined)
    return refused(
      `${name}: --timeout: not a duration such as 10s or 500ms: ${String(values.timeout)}`,
      2,
    );
  const given = values['idempotency-key'];
  if (typeof given === 'string' && !/^[\x21-\x7e]{1,200}$/.test(given))
    return refused(`${name}: --idempotency-key: 1 to 200 printable characters without spaces`, 2);
  const key = typeof given === 'string' ? given : `flow-${randomUUID()}`;
  try {
    return await spec.run(positionals, values, {
      api: new IngressClient(base, { timeoutMs, adminUrl: admin }),
      key,
      admin,
    });
  } catch (e) {
    return refused(`${name}: internal error: ${(e as Error).message}`, 70);
  }
}

/** `flow journal ID --follow`: prints as it goes, since it runs until the process ends. */
async function followJournal(api: IngressClient, id: string): Promise<CommandResult> {
  let printed = 0;
  let stopped = false;
  const stop = () => (stopped = true);
  process.once('SIGINT', stop);
  try {
    for (;;) {
      const journal = await api.journal(id);
      if (!journal.ok) return answered('journal', journal, null);
      for (const entry of journal.value.slice(printed))
        process.stdout.write(`${JSON.stringify(entry)}\n`);
      printed = journal.value.length;
      const rest = await api.rest(id);
      if (
        stopped ||
        !rest.ok ||
        rest.value === null ||
        ['done', 'cancelled'].includes(rest.value.status)
      )
        return { out: [], err: [], code: 0 };
      await new Promise((r) => setTimeout(r, FOLLOW_EVERY_MS));
    }
  } finally {
    process.off('SIGINT', stop);
  }
}

/** How often `journal --follow` asks for new entries. */
const FOLLOW_EVERY_MS = 500;

/** `flow cancel INVOCATION`: Restate's admin API cancels it (a no-op once it has finished). */
async function cancelInvocation(admin: string, invocation: string): Promise<CommandResult> {
  if (!/^inv_[0-9A-Za-z]+$/.test(invocation))
    return refused(
      `cancel: "${invocation}" is not an invocation id (inv_…, as a timeout prints it)`,
      2,
    );
  let response: Response;
  try {
    response = await fetch(new URL(`/invocations/${invocation}/cancel`, admin), {
      method: 'PATCH',
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    return refused(
      `cancel: cannot reach Restate's admin API at ${admin} (${(e as Error).message})`,
    );
  }
  if (response.ok) return ok({ cancelled: invocation });
  const text = (await response.text()).slice(0, 500);
  return refused(`cancel: Restate answered ${response.status}: ${text}`);
}

const SERVE_HELP = [
  'usage: flow serve [--port 9080] [--admin http://127.0.0.1:9070] [--replace]',
  '                  [--allow-origin https://shop.example ...]',
  '',
  "Runs wakeflow's endpoint and registers it with the server's admin API, until Ctrl+C. It",
  'refuses to take over a registration that points at another endpoint still answering, unless',
  'given --replace; it says which registration it replaces.',
  '',
  'Calls reach only the origins given with --allow-origin (repeatable; * allows every origin);',
  'any other is refused: origin not allowed. $secret(name) reads WAKEFLOW_SECRET_NAME from the',
  'environment (upper case, every character but a letter or digit as _), read as it is sent.',
];

type ServeValues = {
  port?: string;
  admin?: string;
  replace?: boolean;
  'allow-origin'?: string[];
  help?: boolean;
};

/**
 * `flow serve`: the endpoint, registered with the server's admin API, until SIGINT or SIGTERM.
 * It prints as it goes, since it runs until stopped.
 */
async function serveCommand(args: string[]): Promise<CommandResult> {
  let values: ServeValues;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        admin: { type: 'string' },
        replace: { type: 'boolean' },
        'allow-origin': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }) as { values: ServeValues });
  } catch (e) {
    return { out: [], err: [`serve: ${(e as Error).message}`], code: 2 };
  }
  if (values.help === true) return { out: SERVE_HELP, err: [], code: 0 };
  const port = Number(values.port ?? 9080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return { out: [], err: [`serve: --port: not a port number: ${String(values.port)}`], code: 2 };
  const admin = typeof values.admin === 'string' ? values.admin : 'http://127.0.0.1:9070';
  if (!URL.canParse(admin))
    return { out: [], err: [`serve: --admin: not a URL: ${admin}`], code: 2 };
  const origins = parseOrigins(values['allow-origin'] ?? []);
  if (!origins.ok) return { out: [], err: [`serve: --allow-origin: ${origins.error}`], code: 2 };
  process.env.RESTATE_LOGGING ??= 'WARN';
  let endpoint;
  try {
    endpoint = await serveEndpoint(port, undefined, callSettings(origins.origins, process.env));
  } catch (e) {
    return {
      out: [],
      err: [`serve: cannot listen on port ${port}: ${(e as Error).message}`],
      code: 1,
    };
  }
  let replaced;
  try {
    ({ replaced } = await registerEndpoint(admin, endpoint.url, {
      replace: values.replace === true,
    }));
  } catch (e) {
    await endpoint.close();
    return { out: [], err: [`serve: ${(e as Error).message}`], code: 1 };
  }
  const instead = replaced
    ? `, replacing ${replaced.uri}${replaced.answering ? '' : ', which did not answer'}`
    : '';
  // Listened for before the line is printed: whoever reads it may stop serve at once.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  process.stdout.write(
    `wakeflow endpoint on ${endpoint.url}, registered with ${admin}${instead}\n`,
  );
  await stopped;
  await endpoint.close();
  return { out: [], err: [], code: 0 };
}

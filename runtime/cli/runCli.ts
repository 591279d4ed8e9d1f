import type { CommandResult } from './commandResult.ts';
import { readInput } from './readInput.ts';
import { RESTATE_COMMANDS, RESTATE_USAGE } from '../restate/cliNames.ts';

const USAGE = [
  'usage: npm run -s flow -- COMMAND FILE',
  '',
  '  validate FILE    check a flow/1 or flows/1 file: prints "ok" and the signature, or each problem',
  '  signature FILE   print the signature of each flow in the file',
  '  simulate FILE    run a scenario/1 file on a virtual clock and print the report',
  '  import-bpmn FILE read a BPMN 2.0 file and print it as flows/1',
  '  export-bpmn FILE print a flow/1 or flows/1 file as BPMN 2.0 XML, with its layout',
  ...RESTATE_USAGE,
];

type Command = (text: string) => CommandResult | Promise<CommandResult>;

// Each command's module is loaded when it is asked for: a call pays at start-up only for the
// code it runs (the compiled command line keeps each in a chunk of its own, scripts/buildCli.mjs),
// so `simulate` does not parse the BPMN reader, nor any command the Restate SDK.
const flowCommands = () => import('./flowCommands.ts');
const bpmnCommands = () => import('./bpmnCommands.ts');
const COMMANDS: Record<string, () => Promise<Command>> = {
  validate: async () => (await flowCommands()).validateCommand,
  signature: async () => (await flowCommands()).signatureCommand,
  simulate: async () => (await flowCommands()).simulateCommand,
  'import-bpmn': async () => (await bpmnCommands()).importBpmnCommand,
  'export-bpmn': async () => (await bpmnCommands()).exportBpmnCommand,
};

/**
 * The `flow` command line. Exit codes: 0 done, 1 the input has problems (or made the command
 * fail: an error inside names itself as internal, on one line), 2 the command was mistyped; no
 * other, whatever the input (main.ts guards the rest). It never throws, so a user never sees a
 * stack trace.
 */
export async function runCli(args: readonly string[]): Promise<CommandResult> {
  const [name, file, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    return { out: USAGE, err: [], code: name === undefined ? 2 : 0 };
  }
  if (RESTATE_COMMANDS.includes(name))
    return (await import('../restate/cliCommands.ts')).restateCommand(name, args.slice(1));
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) return { out: [], err: [`unknown command "${name}"`, ...USAGE], code: 2 };
  if (file === undefined) {
    return { out: [], err: [`${name}: name a FILE to read`, ...USAGE], code: 2 };
  }
  if (rest.length > 0) {
    return { out: [], err: [`${name}: one FILE only, got also ${rest.join(' ')}`], code: 2 };
  }
  const input = await readInput(file);
  if ('error' in input) return { out: [], err: [input.error], code: 1 };
  try {
    return await (
      await load()
    )(input.text);
  } catch (e) {
    return { out: [], err: [`${name}: internal error: ${oneLine(e)}`], code: 1 };
  }
}

/** What went wrong, on one line and never as a stack: a message, cut short if it is huge. */
export function oneLine(e: unknown): string {
  let message: string;
  try {
    message = e instanceof Error ? e.message : String(e);
  } catch {
    message = 'an error that cannot be described';
  }
  const line = message.replace(/\s+/g, ' ').trim() || 'an error without a message';
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

import type { CommandResult } from '../command/commandResult.ts';
import { readInput } from '../command/readInput.ts';
import { NO_COMMANDS, type RegisteredCommands } from '../command/registeredCommands.ts';

const USAGE = [
  'usage: npm run -s flow -- COMMAND FILE',
  '',
  '  validate FILE    check a flow/1 or flows/1 file: prints "ok" and the signature, or each problem',
  '  signature FILE   print the signature of each flow in the file',
  '  simulate FILE    run a scenario/1 file on a virtual clock and print the report',
  '  import-bpmn FILE read a BPMN 2.0 file and print it as flows/1',
  '  export-bpmn FILE print a flow/1 or flows/1 file as BPMN 2.0 XML, with its layout',
];

type Command = (text: string) => CommandResult | Promise<CommandResult>;

// Each command's module is loaded when it is asked for: a call pays at start-up only for the
// code it runs (the compiled command line keeps each in a chunk of its own, scripts/buildCli.mjs),
// so `simulate` does not parse the BPMN reader, nor any command the Restate SDK.
const flowCommands = () => import('./flowCommands.ts');
const bpmnCommands = () => import('./bpmnCommands.ts');
const COMMANDS: Record<string, () => Promise<Command>> = {
  validate: async () => (await import('../command/validateCommand.ts')).validateCommand,
  signature: async () => (await flowCommands()).signatureCommand,
  simulate: async () => (await flowCommands()).simulateCommand,
  'import-bpmn': async () => (await bpmnCommands()).importBpmnCommand,
  'export-bpmn': async () => (await bpmnCommands()).exportBpmnCommand,
};

/**
 * The `flow` command line. Exit codes: 0 done, 1 the input has problems (or made the command
 * fail: an error inside names itself as internal, on one line), 2 the command was mistyped; no
 * other, whatever the input (main.ts guards the rest). It never throws, so a user never sees a
 * stack trace. `registered` adds the commands of other parts of the runtime (main.ts registers
 * Restate's): they read their own arguments.
 */
export async function runCli(
  line: readonly string[],
  registered: RegisteredCommands = NO_COMMANDS,
): Promise<CommandResult> {
  const args = commandFirst(line, registered.leadingOptions);
  const [name, file, ...rest] = args;
  const usage = [...USAGE, ...registered.usage];
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    return { out: usage, err: [], code: name === undefined ? 2 : 0 };
  }
  const other = Object.hasOwn(registered.commands, name) ? registered.commands[name] : undefined;
  if (other) {
    try {
      return await (
        await other()
      )(args.slice(1));
    } catch (e) {
      return { out: [], err: [`${name}: internal error: ${oneLine(e)}`], code: 1 };
    }
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) return { out: [], err: [`unknown command "${name}"`, ...usage], code: 2 };
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

/**
 * The line with the options that may come before the command's name moved after it:
 * `--ingress URL status ID` reads as `status ID --ingress URL`.
 */
function commandFirst(line: readonly string[], leading: readonly string[]): string[] {
  const moved: string[] = [];
  let i = 0;
  for (; i < line.length; i++) {
    const arg = line[i]!;
    if (leading.some((o) => arg.startsWith(`${o}=`))) moved.push(arg);
    else if (leading.includes(arg) && i + 1 < line.length) moved.push(arg, line[++i]!);
    else break;
  }
  if (i === line.length) return [...line];
  return [line[i]!, ...line.slice(i + 1), ...moved];
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

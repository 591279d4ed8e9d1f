import type { ArgsCommand, RegisteredCommands } from '../command/registeredCommands.ts';

const NAMES = [
  'serve',
  'ui',
  'deploy',
  'start',
  'event',
  'human',
  'status',
  'stop',
  'resume',
  'retry',
  'resolve',
  'set-context',
  'list',
  'journal',
  'flows',
  'cancel',
] as const;

const load = (name: string) => async (): Promise<ArgsCommand> => {
  const { restateCommand } = await import('./cliCommands.ts');
  return (args) => restateCommand(name, args);
};

/**
 * The commands that drive a Restate server, registered with the command line
 * (runtime/cli/main.ts) apart from their code (cliCommands.ts), so that the command line loads
 * Restate's SDK only when one of them runs.
 */
export const RESTATE_COMMANDS: RegisteredCommands = {
  commands: Object.fromEntries(NAMES.map((n) => [n, load(n)])),
  leadingOptions: ['--ingress', '--admin', '--timeout', '--idempotency-key'],
  usage: [
    '',
    'On a Restate server (docs/restate.md). Each takes --ingress URL ($WAKEFLOW_RESTATE_INGRESS,',
    'http://127.0.0.1:8080), --admin URL ($WAKEFLOW_RESTATE_ADMIN, http://127.0.0.1:9070),',
    '--timeout 10s and --help; each change prints its idempotency key, --idempotency-key K sets it:',
    '  serve [--port 9080] [--replace] [--allow-origin URL]  run the endpoint and register it',
    '  ui [--port 5180] [--ingress URL]  serve the built workbench, which reaches that server',
    '  deploy FILE                      store a flow/1 or flows/1 file (refused as validate refuses it)',
    '  flows                            the deployed flows and the versions processes stand on',
    '  start FLOW --as ID [--context JSON | --share-context-with ID]',
    '  event NAME [PAYLOAD] [--to ID]   deliver an event to every process waiting for it',
    "  human ID NODE INPUT [--trigger T]  answer a person's form",
    "  set-context ID PATH VALUE        write into a process's context (then retry ID)",
    '  status [ID]                      the process as simulate reports it; every process without ID',
    '  list [--status S] [--due-before TIME] [--limit N] [--after ID]   processes, a page at a time',
    '  journal ID [--follow]            what happened to the process',
    '  stop ID | resume ID | retry ID | resolve ID continue|keep|restart|cancel',
    '  cancel INVOCATION                cancel a queued command by the id its timeout printed',
    '  JSON arguments are inline, @FILE, or - for standard input.',
  ],
};

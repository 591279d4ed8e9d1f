import type { ArgsCommand, RegisteredCommands } from '../command/registeredCommands.ts';

const NAMES = [
  'serve',
  'deploy',
  'start',
  'event',
  'human',
  'status',
  'stop',
  'resume',
  'retry',
  'resolve',
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
  leadingOptions: ['--ingress'],
  usage: [
    '',
    'On a Restate server (docs/restate.md; --ingress URL, default $WAKEFLOW_RESTATE_INGRESS or http://127.0.0.1:8080):',
    '  serve [--port 9080] [--admin http://127.0.0.1:9070]   run the endpoint and register it',
    '  deploy FILE                      store a flow/1 or flows/1 file (refused as validate refuses it)',
    '  start FLOW --as ID [--context JSON | --share-context-with ID]',
    '  event NAME [PAYLOAD] [--to ID]   deliver an event to every process waiting for it',
    "  human ID NODE INPUT [--trigger T]  answer a person's form",
    '  status [ID]                      the process as simulate reports it; every process without ID',
    '  stop ID | resume ID | retry ID | resolve ID continue|keep|restart|cancel',
  ],
};

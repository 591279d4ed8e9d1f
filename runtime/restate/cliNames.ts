/**
 * The names and usage of the commands that drive a Restate server, apart from their code
 * (cliCommands.ts), so that the command line loads Restate's SDK only when one of them runs.
 */
export const RESTATE_COMMANDS: readonly string[] = [
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
];

/** The lines `flow --help` adds for the commands that drive a Restate server. */
export const RESTATE_USAGE = [
  '',
  'On a Restate server (docs/restate.md; --ingress URL, default $WAKEFLOW_RESTATE_INGRESS or http://127.0.0.1:8080):',
  '  serve [--port 9080] [--admin http://127.0.0.1:9070]   run the endpoint and register it',
  '  deploy FILE                      store a flow/1 or flows/1 file (refused as validate refuses it)',
  '  start FLOW --as ID [--context JSON | --share-context-with ID]',
  '  event NAME [PAYLOAD] [--to ID]   deliver an event to every process waiting for it',
  "  human ID NODE INPUT [--trigger T]  answer a person's form",
  '  status [ID]                      the process as simulate reports it; every process without ID',
  '  stop ID | resume ID | retry ID | resolve ID continue|keep|restart|cancel',
];

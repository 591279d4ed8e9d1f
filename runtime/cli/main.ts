import { RESTATE_COMMANDS } from '../restate/cliNames.ts';
import { oneLine, runCli } from './runCli.ts';

// The last resort: whatever escapes runCli (an error thrown later from a callback, a rejection
// nobody awaited) ends the command with one line and exit 1, never Node's stack trace or code.
const fail = (e: unknown) => {
  process.stderr.write(`flow: internal error: ${oneLine(e)}\n`);
  process.exit(1);
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

// The one place the command line learns of the Restate commands: runCli.ts does not import them.
try {
  const result = await runCli(process.argv.slice(2), RESTATE_COMMANDS);
  for (const line of result.out) process.stdout.write(`${line}\n`);
  for (const line of result.err) process.stderr.write(`${line}\n`);
  process.exitCode = result.code;
} catch (e) {
  fail(e);
}

import { runCli } from './runCli.ts';

const result = await runCli(process.argv.slice(2));
for (const line of result.out) process.stdout.write(`${line}\n`);
for (const line of result.err) process.stderr.write(`${line}\n`);
process.exitCode = result.code;

import { spawn, type ChildProcess } from 'node:child_process';
import { inject } from 'vitest';
import { runCli } from '../../cli/runCli.ts';
import { RESTATE_COMMANDS } from '../cliNames.ts';
import { IngressClient } from '../ingressClient.ts';

/** The `flow` command line as main.ts runs it: with the Restate commands registered. */
export const flow = (args: string[]) => runCli(args, RESTATE_COMMANDS);

/** The shared server's ingress, and ids no other test uses on it. */
export function ingress(): IngressClient {
  return new IngressClient(inject('restate').ingressUrl);
}

let n = 0;
/** A prefix for process and flow ids, unique to this run of this file. */
export function uniquePrefix(name: string): string {
  return `${name}${Date.now().toString(36)}${++n}-`;
}

/** Asks until `check` holds, at most `tries` times, `everyMs` apart; the last answer either way. */
export async function until<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  { tries = 100, everyMs = 100 } = {},
): Promise<T> {
  let value = await read();
  for (let i = 1; i < tries && !check(value); i++) {
    await new Promise((r) => setTimeout(r, everyMs));
    value = await read();
  }
  return value;
}

/**
 * The `flow` command line as its own process, as a shell runs it: for what runCli cannot show,
 * standard input (`-`) and `journal --follow`, which prints as it goes. `stdin` is written and
 * closed; without it standard input is closed at once.
 */
export function flowProcess(args: string[], stdin = ''): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/cli/main.ts', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin!.end(stdin);
  return child;
}

/** The process's output, its lines, and its exit code, once it has exited by itself. */
export async function finished(
  child: ChildProcess,
): Promise<{ out: string[]; err: string[]; code: number | null }> {
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('close', r));
  const lines = (s: string) => s.split('\n').filter((l) => l !== '');
  return { out: lines(out), err: lines(err), code };
}

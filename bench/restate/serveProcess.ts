import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../runtime/cli/main.ts', import.meta.url));

/** `flow serve` in a process of its own, so that a fault run can kill it. */
export interface ServeProcess {
  child: ChildProcess;
  /** SIGKILL: the endpoint dies mid-invocation, as in a crash. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** `extra`: more of serve's flags (`--allow-origin URL`). */
export async function startServe(
  port: number,
  adminUrl: string,
  extra: readonly string[] = [],
): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, 'serve', '--port', String(port), '--admin', adminUrl, ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RESTATE_LOGGING: 'ERROR' } },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', () => resolve());
    child.once('exit', (code) => reject(new Error(`flow serve exited with ${code}: ${stderr}`)));
  });
  const signal = (s: NodeJS.Signals) => async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(s);
    await exited;
  };
  return { child, kill: signal('SIGKILL'), stop: signal('SIGTERM') };
}

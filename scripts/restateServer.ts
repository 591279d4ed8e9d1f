// The Restate server for the tests that need one, set up the way the e2e tests set up Chromium:
// never a dependency of the project (npm install does not download it), installed on demand into
// a cache, started on free local ports with a fresh data directory, and stopped by its own pid.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const RESTATE_SERVER_VERSION = '1.7.12';

/** Where the server is installed: `$WAKEFLOW_CACHE` or `~/.cache/wakeflow`, then `restate`. */
export function restateCacheDir(): string {
  return join(process.env.WAKEFLOW_CACHE ?? join(homedir(), '.cache', 'wakeflow'), 'restate');
}

/** The server's binary, installed into the cache first if it is not there (one npm install). */
export function ensureRestateServer(): string {
  const prefix = restateCacheDir();
  const binary = join(
    prefix,
    'node_modules',
    '@restatedev',
    `restate-server-${process.platform}-${process.arch}`,
    'bin',
    'restate-server',
  );
  if (existsSync(binary)) return binary;
  const args = ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix];
  console.log(`Installing @restatedev/restate-server@${RESTATE_SERVER_VERSION} into ${prefix}`);
  const result = spawnSync(
    'npm',
    [...args, `@restatedev/restate-server@${RESTATE_SERVER_VERSION}`],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0 || !existsSync(binary))
    throw new Error(
      `could not install @restatedev/restate-server@${RESTATE_SERVER_VERSION} into ${prefix}; run that npm install by hand`,
    );
  return binary;
}

/** A free TCP port on 127.0.0.1, as the system hands one out. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The server's invocation retry policy, for `npm run restate` and the tests (a cluster sets the
 * same in its configuration's `[default-retry-policy]`, docs/restate.md). Restate's default
 * backs off to a minute between attempts and pauses an invocation after 70: after the endpoint
 * was down for ten minutes, the next pass came 16 s after it was back. Here an attempt is made
 * at most a second apart, and never given up on, so a process goes on within a second or two of
 * the endpoint's return.
 */
export const RETRY_POLICY_ENV: Record<string, string> = {
  RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL: '100ms',
  RESTATE_DEFAULT_RETRY_POLICY__EXPONENTIATION_FACTOR: '2.0',
  RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: '1s',
  RESTATE_DEFAULT_RETRY_POLICY__MAX_ATTEMPTS: 'unlimited',
};

export interface NodePorts {
  ingress: number;
  admin: number;
  fabric: number;
}

export interface RestateNodeOptions {
  /** The data directory; a fresh temporary one when absent. */
  baseDir?: string;
  ports?: NodePorts;
  nodeName?: string;
  /** Extra environment: a cluster's settings (RESTATE_* variables). */
  env?: Record<string, string>;
  /** How long to wait for the node to answer, in ms. */
  readyWithin?: number;
  /** Waits only for the admin API (a node that is not the first of a cluster). */
  healthOf?: 'ingress' | 'admin';
}

/** A running node, started by us: its URLs, and stop/kill by its own pid. */
export interface RestateNode {
  ingressUrl: string;
  adminUrl: string;
  ports: NodePorts;
  baseDir: string;
  logFile: string;
  child: ChildProcess;
  /** SIGTERM, then waits for the process to end. */
  stop(): Promise<void>;
  /** SIGKILL: a crash, the data directory left as it was. */
  kill(): Promise<void>;
}

/** Starts one Restate node on free ports, waiting until its ingress (or admin) answers. */
export async function startRestateNode(options: RestateNodeOptions = {}): Promise<RestateNode> {
  const binary = ensureRestateServer();
  const baseDir = options.baseDir ?? mkdtempSync(join(tmpdir(), 'wakeflow-restate-'));
  const ports = options.ports ?? {
    ingress: await freePort(),
    admin: await freePort(),
    fabric: await freePort(),
  };
  const logFile = join(baseDir, `server-${Date.now()}.log`);
  const log = openSync(logFile, 'a');
  const child = spawn(
    binary,
    [
      '--no-logo',
      '--listen-mode',
      'tcp',
      '--base-dir',
      baseDir,
      '--node-name',
      options.nodeName ?? 'n1',
    ],
    {
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ports.ingress}`,
        RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${ports.admin}`,
        RESTATE_BIND_ADDRESS: `127.0.0.1:${ports.fabric}`,
        RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${ports.fabric}/`,
        RESTATE_LOG_FORMAT: 'compact',
        ...RETRY_POLICY_ENV,
        ...options.env,
      },
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const node: RestateNode = {
    ingressUrl: `http://127.0.0.1:${ports.ingress}`,
    adminUrl: `http://127.0.0.1:${ports.admin}`,
    ports,
    baseDir,
    logFile,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  const url =
    options.healthOf === 'admin' ? `${node.adminUrl}/health` : `${node.ingressUrl}/restate/health`;
  const deadline = Date.now() + (options.readyWithin ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`restate-server exited early; see ${logFile}`);
    try {
      if ((await fetch(url)).ok) return node;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await node.kill();
  throw new Error(
    `restate-server did not answer within ${options.readyWithin ?? 60_000} ms; see ${logFile}`,
  );
}

/** Removes a data directory made by `startRestateNode`. */
export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

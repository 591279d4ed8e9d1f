import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { headerPolicyFor } from '../../shared/contentSecurityPolicy.ts';
import type { CommandResult } from '../command/commandResult.ts';
import { ingressProxy } from './ingressProxy.ts';

export const UI_HELP = [
  'usage: flow ui [--port 5180] [--host 127.0.0.1] [--ingress URL]... [--app dist]',
  '',
  'Serves the built workbench (npm run build) with its Content-Security-Policy, and forwards',
  "the page's /ingress requests to each --ingress URL given (loopback servers without one),",
  'so that "Connect to a server" reaches a Restate server of another origin (docs/restate.md).',
];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export interface UiOptions {
  port: number;
  host: string;
  ingress: string[];
  app: string;
}

/**
 * The built app and the `/ingress` proxy on one server: a file of the app directory as it is,
 * index.html for a path that names no file (the app routes itself), nothing outside it.
 */
export async function startUi(
  options: UiOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const root = resolve(options.app);
  const proxy = ingressProxy(options.ingress.length > 0 ? { allowed: options.ingress } : {});
  const index = readFileSync(resolve(root, 'index.html'));
  const server: Server = createServer((req, res) => {
    proxy(req, res, () => {
      const pathname = decodeSafely((req.url ?? '/').split(/[?#]/, 1)[0]!);
      res.setHeader('Content-Security-Policy', headerPolicyFor(pathname ?? '/'));
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD' });
        return res.end();
      }
      const file = pathname === undefined ? undefined : resolve(root, `.${pathname}`);
      if (file === undefined || (file !== root && !file.startsWith(root + sep))) {
        res.writeHead(404);
        return res.end('not found');
      }
      if (existsSync(file) && statSync(file).isFile()) {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        return res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
      }
      // A path with an extension names a file that is not there; any other is the app's.
      if (extname(file) !== '') {
        res.writeHead(404);
        return res.end('not found');
      }
      res.writeHead(200, { 'content-type': TYPES['.html']! });
      res.end(req.method === 'HEAD' ? undefined : index);
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function decodeSafely(path: string): string | undefined {
  try {
    const decoded = decodeURIComponent(path);
    return decoded.includes('\0') ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/** `flow ui`'s flags, checked before anything listens: the options, or what is wrong. */
export function parseUiArgs(args: string[]): UiOptions | CommandResult | 'help' {
  let values: { port?: string; host?: string; ingress?: string[]; app?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        ingress: { type: 'string', multiple: true },
        app: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }) as { values: typeof values });
  } catch (e) {
    return { out: [], err: [`ui: ${(e as Error).message}`], code: 2 };
  }
  if (values.help === true) return 'help';
  const port = Number(values.port ?? 5180);
  if (!/^\d+$/.test(values.port ?? '5180') || port > 65535)
    return { out: [], err: [`ui: --port: not a port number: ${String(values.port)}`], code: 2 };
  const ingress: string[] = [];
  for (const text of values.ingress ?? []) {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      return {
        out: [],
        err: [`ui: --ingress: not an http(s) URL: ${text.slice(0, 200)}`],
        code: 2,
      };
    ingress.push(url.origin);
  }
  const app = values.app ?? 'dist';
  if (!existsSync(resolve(app, 'index.html')))
    return { out: [], err: [`ui: no built app in ${app}: run npm run build`], code: 1 };
  return { port, host: values.host ?? '127.0.0.1', ingress, app };
}

/** `flow ui`: serves the workbench until stopped (Ctrl+C). */
export async function uiCommand(args: string[]): Promise<CommandResult> {
  const parsed = parseUiArgs(args);
  if (parsed === 'help') return { out: UI_HELP, err: [], code: 0 };
  if (!('app' in parsed)) return parsed;
  let ui;
  try {
    ui = await startUi(parsed);
  } catch (e) {
    return {
      out: [],
      err: [`ui: cannot listen on port ${parsed.port}: ${(e as Error).message}`],
      code: 1,
    };
  }
  const stopped = new Promise<void>((r) => {
    process.once('SIGINT', () => r());
    process.once('SIGTERM', () => r());
  });
  const reaches = parsed.ingress.length > 0 ? parsed.ingress.join(', ') : 'servers on this machine';
  process.stdout.write(`wakeflow workbench at ${ui.url} (ingress: ${reaches})\n`);
  await stopped;
  await ui.close();
  return { out: [], err: [], code: 0 };
}

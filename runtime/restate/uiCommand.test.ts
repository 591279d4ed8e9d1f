import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.ts';
import { RESTATE_COMMANDS } from './cliNames.ts';
import { startUi } from './uiCommand.ts';

// `flow ui` (docs/restate.md, "The workbench attached to a server"): the built app with its
// policy, the app's own routes, nothing outside its directory, and the /ingress proxy.
const flow = (args: string[]) => runCli(args, RESTATE_COMMANDS);

let app: string;
let ui: { url: string; close(): Promise<void> };

beforeAll(async () => {
  app = mkdtempSync(join(tmpdir(), 'wakeflow-ui-'));
  writeFileSync(join(app, 'index.html'), '<!doctype html><title>wakeflow</title>');
  mkdirSync(join(app, 'assets'));
  writeFileSync(join(app, 'assets', 'main-abc.js'), 'console.log(1)');
  writeFileSync(join(app, 'assets', 'runtimeWorker-abc.js'), 'self.x = 1');
  ui = await startUi({ port: 0, host: '127.0.0.1', ingress: [], app });
});
afterAll(async () => {
  await ui.close();
  rmSync(app, { recursive: true, force: true });
});

/** A GET with the path sent as written (a URL string would resolve `..` first). */
function get(path: string): Promise<{ status: number; csp: string | undefined; body: string }> {
  const { hostname, port } = new URL(ui.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          csp: res.headers['content-security-policy'] as string | undefined,
          body,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('flow ui', () => {
  it('serves the app’s files with the page’s policy, and the runtime worker with its own', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>wakeflow</title>');
    expect(page.csp).toContain("connect-src 'self';");
    expect(page.csp).toContain("frame-ancestors 'none'");
    const worker = await get('/assets/runtimeWorker-abc.js');
    expect(worker.body).toBe('self.x = 1');
    expect(worker.csp).toContain("connect-src 'self' http: https:");
  });

  it('answers a route of the app with index.html, and a missing file with 404', async () => {
    expect((await get('/processes/p-1')).body).toContain('<title>wakeflow</title>');
    expect((await get('/assets/gone.js')).status).toBe(404);
  });

  it.each(['/../package.json', '/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json', '/%00'])(
    'serves nothing outside the app directory: %s',
    async (path) => {
      const answer = await get(path);
      expect(answer.status).toBe(404);
    },
  );

  it('forwards /ingress to a server on this machine, and refuses another without --ingress', async () => {
    const answer = await fetch(`${ui.url}/ingress/wakeflow/flows`, {
      method: 'POST',
      headers: { 'x-wakeflow-ingress': 'https://restate.example' },
    });
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { message: string }).message).toContain(
      'flow ui --ingress https://restate.example',
    );
  });

  it.each([
    [['--port', 'eighty'], 'ui: --port: not a port number: eighty', 2],
    [['--port', '70000'], 'ui: --port: not a port number: 70000', 2],
    [['--ingress', 'restate:8080'], 'ui: --ingress: not an http(s) URL: restate:8080', 2],
    [['--ingress', 'ftp://host'], 'ui: --ingress: not an http(s) URL: ftp://host', 2],
    [
      ['--app', '/nonexistent/wakeflow'],
      'ui: no built app in /nonexistent/wakeflow: run npm run build',
      1,
    ],
    [['--bogus'], "ui: Unknown option '--bogus'", 2],
  ])('refuses %j before it listens, saying what is wrong', async (args, message, code) => {
    const result = await flow(['ui', ...args, ...(args[0] === '--app' ? [] : ['--app', app])]);
    expect(result.code).toBe(code);
    expect(result.err.join('\n')).toContain(message);
  });

  it('says what it does with --help', async () => {
    const result = await flow(['ui', '--help']);
    expect(result.code).toBe(0);
    expect(result.out[0]).toMatch(/^usage: flow ui/);
  });
});

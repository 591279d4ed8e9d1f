import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.ts';
import { REPORT_PARAM } from './reportToBench.ts';
import { tempDir } from './serve.ts';

/**
 * Opens `url` in a headless Chromium that no DevTools client watches, and resolves with the JSON
 * the page posts to the address it is given in `?report=` (reportToBench.ts); rejects with the
 * page's own error when it posts `{ error }`, or when Chromium ends first or `timeoutMs` passes.
 *
 * Why not Playwright: it enables the DevTools Network domain on every page and worker it drives,
 * and then every request the page makes is reported to it as it goes. In this Chromium that
 * roughly doubled the CPU a request costs (the browser, the network service and the page), and
 * slowed a loop of requests to a local server by as much: a cost no user's page pays, which a
 * section that times requests (calls.bench.ts) would count as theirs.
 */
export async function runUnwatched<T>(url: string, timeoutMs: number): Promise<T> {
  const executable = findChromium();
  if (!executable) throw new Error('no Chromium found: set CHROMIUM_PATH or install chromium');
  const profile = tempDir('unwatched-profile');
  let settle!: { resolve: (v: T) => void; reject: (e: Error) => void };
  const result = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  const receiver = await listen((body) => {
    const posted = JSON.parse(body) as { error?: string; value?: T };
    if (posted.error !== undefined) settle.reject(new Error(`the page failed: ${posted.error}`));
    else settle.resolve(posted.value as T);
  });
  const page = new URL(url);
  page.searchParams.set(REPORT_PARAM, receiver.url);
  const child = spawn(
    executable,
    ['--headless', ...CHROMIUM_ARGS, `--user-data-dir=${profile.dir}`, page.href],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => settle.reject(new Error('Chromium ended before the page reported')));
  child.once('error', (e) => settle.reject(e));
  const timer = setTimeout(
    () => settle.reject(new Error(`the page did not report within ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    return await result;
  } finally {
    clearTimeout(timer);
    // The bench's own child, ended by its id.
    if (child.exitCode === null) child.kill();
    await exited;
    await receiver.close();
    profile.cleanup();
  }
}

/** A server on 127.0.0.1 and a free port that hands each POSTed body to `receive`. */
async function listen(
  receive: (body: string) => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(204).end();
      if (req.method === 'POST') receive(Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

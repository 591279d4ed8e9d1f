import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingressProxy, MAX_BODY } from './ingressProxy.ts';

// docs/restate.md, "The workbench attached to a server": the page's /ingress, forwarded to the
// ingress its header names, loopback only unless allowed; everything else refused with why.

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

let ingress: string;
let page: string;
let allowedPage: string;
const seen: Seen[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  const fake = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echoed: body }));
    });
  });
  const withProxy = (allowed?: string[]) =>
    createServer((req, res) => {
      ingressProxy(allowed ? { allowed } : {})(req, res, () => {
        res.writeHead(299);
        res.end('next');
      });
    });
  const proxy = withProxy();
  const onlyExample = withProxy(['https://restate.example']);
  servers.push(fake, proxy, onlyExample);
  ingress = await listen(fake);
  page = await listen(proxy);
  allowedPage = await listen(onlyExample);
});
afterAll(() => servers.forEach((s) => s.close()));

const send = (path: string, init: RequestInit & { target?: string | null } = {}, base = page) => {
  const { target = ingress, headers, ...rest } = init;
  return fetch(`${base}${path}`, {
    method: 'POST',
    ...rest,
    headers: {
      ...(target === null ? {} : { 'x-wakeflow-ingress': target }),
      ...(headers as Record<string, string>),
    },
  });
};

async function refusal(response: Response) {
  return {
    status: response.status,
    body: (await response.json()) as { message: string; source: string },
  };
}

describe('the ingress proxy', () => {
  it('forwards the method, the path, the body and the status, and the ingress headers only', async () => {
    seen.length = 0;
    const answer = await send('/ingress/process/p-1/stop/send?x=1', {
      body: '{"a":1}',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer tok',
        'idempotency-key': 'k-1',
        cookie: 'session=secret',
      },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ echoed: '{"a":1}' });
    const got = seen[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/process/p-1/stop/send?x=1');
    expect(got.headers.authorization).toBe('Bearer tok');
    expect(got.headers['idempotency-key']).toBe('k-1');
    expect(got.headers.cookie).toBeUndefined();
    expect(got.headers['x-wakeflow-ingress']).toBeUndefined();
    expect((await send('/ingress/missing')).status).toBe(404);
  });

  it('leaves every other path to the next handler', async () => {
    const answer = await send('/index.html');
    expect(answer.status).toBe(299);
  });

  it.each([
    ['no ingress named', null, 400, 'no ingress named'],
    ['not a URL', 'restate', 400, 'not a URL'],
    ['another scheme', 'file:///etc/passwd', 400, 'not an http(s) URL'],
    ['credentials', 'http://u:p@127.0.0.1:1', 400, 'credentials'],
    [
      'a host not on this machine',
      'http://10.0.0.1:8080',
      403,
      'flow ui --ingress http://10.0.0.1:8080',
    ],
  ])('refuses %s, saying so', async (_, target, status, why) => {
    const r = await refusal(await send('/ingress/wakeflow/flows', { target }));
    expect(r.status).toBe(status);
    expect(r.body.source).toBe('proxy');
    expect(r.body.message).toContain(why);
  });

  it.each([
    '/ingress/../package.json',
    '/ingress/a/%2e%2e/b',
    '/ingress/a/%2E%2E/b',
    '/ingress/a\\..\\b',
  ])('refuses a path that could climb out of the ingress: %s', async (path) => {
    seen.length = 0;
    // fetch would resolve `..` itself: the raw path goes through node's http.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const { hostname, port } = new URL(page);
      // Host, port and path apart: a URL string would have `..` resolved before it is sent.
      const req = request({
        hostname,
        port,
        path,
        method: 'POST',
        headers: { 'x-wakeflow-ingress': ingress },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
    expect(seen).toHaveLength(0);
  });

  it('refuses a request of another origin', async () => {
    const r = await refusal(
      await send('/ingress/wakeflow/flows', { headers: { origin: 'https://evil.example' } }),
    );
    expect(r.status).toBe(403);
    expect(r.body.message).toContain('https://evil.example');
  });

  it('refuses a body over its bound without sending it', async () => {
    seen.length = 0;
    const r = await refusal(
      await send('/ingress/wakeflow/deploy', { body: 'x'.repeat(MAX_BODY + 1) }),
    );
    expect(r.status).toBe(413);
    expect(seen).toHaveLength(0);
  });

  it('says when the server cannot be reached', async () => {
    const closed = createServer();
    const url = await listen(closed);
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await refusal(await send('/ingress/wakeflow/flows', { target: url }));
    expect(r.status).toBe(502);
    expect(r.body.message).toContain(`cannot reach the Restate server at ${url}`);
  });

  it('reaches only the ingresses it was given, when given some', async () => {
    const r = await refusal(await send('/ingress/wakeflow/flows', {}, allowedPage));
    expect(r.status).toBe(403);
    expect(r.body.message).toContain(ingress);
  });
});

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { countsOf, windowOf } from '../../runtime/store/listWindow.ts';
import type { ProcessStatus } from '../../runtime/supervisor/records.ts';
import type { WindowQuery } from '../../runtime/supervisor/store.ts';
import type { Flow } from '../../shared/schema.ts';
import { memoryStorage } from './memoryStorage.ts';
import { createRemoteRuntime, SERVER_CAPABILITIES } from './remoteRuntime.ts';
import {
  checkIngressUrl,
  clearServerChoice,
  readServerChoice,
  saveServerChoice,
} from './serverChoice.ts';

const flow = (id: string): Flow =>
  ({ format: 'flow/1', id, nodes: [{ id: 'start', kind: 'start' }], edges: [] }) as unknown as Flow;

const record = (id: string, status: string, created: number) => ({
  id,
  flow: 'order',
  status,
  due: status === 'waiting' ? 1_000 : null,
  error: status === 'failed' ? 'boom' : null,
  wakes: created,
  created,
  contextId: `ctx-${id}`,
  snapshot: {},
});

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * The page's own origin as the proxy serves it: `/ingress/…` answered as wakeflow's handlers
 * would, and every request kept, so a test can see what the runtime sent.
 */
type Route = (body: string) => [number, unknown] | Promise<[number, unknown]>;

async function fakeProxy(routes: Record<string, Route>) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', async () => {
      const path = (req.url ?? '').replace(/^\/ingress/, '');
      seen.push({ path, headers: req.headers, body });
      const route = routes[path.replace(/\/send$/, '')];
      const [status, value] = route ? await route(body) : [404, { message: `no route ${path}` }];
      // A change is sent, then attached to: the fake answers the attach with the change's answer.
      if (path.endsWith('/send')) {
        const id = `inv_${seen.length}`;
        routes[`/restate/invocation/${id}/attach`] = () => [status, value];
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ invocationId: id }));
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    // Requests a test holds open are dropped, so that closing does not wait on them.
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const reading = (id: string, status: string, created: number) => () =>
  [
    200,
    {
      record: record(id, status, created),
      context: { version: 2, value: { total: 3 } },
      changes: [],
      journal: [{ seq: 1, kind: 'started' }],
      journalMore: false,
      flows: { order: flow('order') },
      calls: [],
    },
  ] as [number, unknown];

const indexed = (['waiting', 'failed', 'done'] as const).map((status, created) => {
  const { id, flow, due, error, wakes } = record(`p-${'abc'[created]}`, status, created);
  return { id, flow, status, created, due, error, wakes, v: 1 };
});

function routesOfThree(): Record<string, Route> {
  return {
    '/wakeflow/flows': () => [200, [{ id: 'order', signature: 's1', versions: ['s1'] }]],
    '/flow/order/current': () => [200, flow('order')],
    // The server's index (processIndex.ts) as it answers, over three rows.
    '/processIndex/all/page': (body) => {
      const query = JSON.parse(body) as WindowQuery;
      const counts = countsOf(indexed, undefined, query.search);
      const total = query.status ? (counts.byStatus[query.status] ?? 0) : counts.total;
      return [200, { rows: windowOf(indexed, query), total, counts, all: 3, stamp: 5 }];
    },
    '/processIndex/all/changes': () => [200, { stamp: 5, ids: [] }],
    '/processIndex/all/counts': () => [200, countsOf(indexed)],
    '/processIndex/all/ids': (body) => {
      const { flow, status } = JSON.parse(body) as { flow: string; status: ProcessStatus };
      const ids = windowOf(indexed, { offset: 0, limit: 10, flow, status }).map((r) => r.id);
      return [200, ids];
    },
    '/processIndex/all/names': () => [200, indexed.map(({ id, flow }) => ({ id, flow }))],
    '/process/p-a/reading': reading('p-a', 'waiting', 0),
    '/process/p-b/reading': reading('p-b', 'failed', 1),
    '/process/p-c/reading': reading('p-c', 'done', 2),
  };
}

describe('the remote runtime (docs/restate.md, "The workbench attached to a server")', () => {
  it('sends every request to the page’s own /ingress, naming the server and passing its token on', async () => {
    const proxy = await fakeProxy(routesOfThree());
    close = proxy.close;
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080', token: 'tok-123' },
      { origin: proxy.origin, storage: memoryStorage() },
    );
    await runtime.check();
    runtime.close();
    expect(proxy.seen[0]!.path).toBe('/wakeflow/flows');
    expect(proxy.seen[0]!.headers['x-wakeflow-ingress']).toBe('http://127.0.0.1:8080');
    expect(proxy.seen[0]!.headers.authorization).toBe('Bearer tok-123');
  });

  it('lists the server’s processes as the table asks: a window, the counts by status, the rows’ flow', async () => {
    const proxy = await fakeProxy(routesOfThree());
    close = proxy.close;
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: proxy.origin, storage: memoryStorage() },
    );
    const list = await runtime.processList({ offset: 1, limit: 1 });
    expect(list.rows).toEqual([
      { id: 'p-b', flow: 'order', status: 'failed', due: null, error: 'boom', wakes: 1 },
    ]);
    expect(list.counts).toEqual({ total: 3, byStatus: { waiting: 1, failed: 1, done: 1 } });
    expect(list.total).toBe(3);
    const failed = await runtime.processList({ offset: 0, limit: 10, status: 'failed' });
    expect(failed.rows.map((r) => r.id)).toEqual(['p-b']);
    expect(failed.total).toBe(1);
    runtime.close();
  });

  it('reads a process in one request, its flows as the inspector takes them', async () => {
    const proxy = await fakeProxy(routesOfThree());
    close = proxy.close;
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: proxy.origin, storage: memoryStorage() },
    );
    const r = await runtime.reading('p-a', 20);
    expect(r?.record.status).toBe('waiting');
    expect(r?.context).toEqual({ version: 2, value: { total: 3 } });
    expect(r?.flows.get('order')?.id).toBe('order');
    expect(JSON.parse(proxy.seen.at(-1)!.body)).toEqual({ journalLimit: 20 });
    expect(await runtime.reading('p-none')).toBeUndefined();
    runtime.close();
  });

  it('asks the server to send a call’s next attempt now, naming the wait, and says whether it did', async () => {
    const routes = routesOfThree();
    routes['/process/p-a/sendCallNow'] = (body) => [
      200,
      (JSON.parse(body) as { seq: number }).seq === 4,
    ];
    const proxy = await fakeProxy(routes);
    close = proxy.close;
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: proxy.origin, storage: memoryStorage() },
    );
    expect(await runtime.processes.sendCallNow('p-a', 4)).toBe(true);
    expect(await runtime.processes.sendCallNow('p-a', 5)).toBe(false);
    const sent = proxy.seen.filter((s) => s.path === '/process/p-a/sendCallNow/send');
    expect(sent.map((s) => JSON.parse(s.body))).toEqual([{ seq: 4 }, { seq: 5 }]);
    expect(sent.every((s) => typeof s.headers['idempotency-key'] === 'string')).toBe(true);
    runtime.close();
  });

  it('forks by starting the new process on the server from the source’s entry, and reads it', async () => {
    const routes = routesOfThree();
    routes['/process/p-f/fork'] = () => [
      200,
      { id: 'p-f', flow: 'order', status: 'waiting', error: null, due: 1_000 },
    ];
    routes['/process/p-f/reading'] = reading('p-f', 'waiting', 3);
    const proxy = await fakeProxy(routes);
    close = proxy.close;
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: proxy.origin, storage: memoryStorage() },
    );
    const told: string[][] = [];
    runtime.onChange((c) => told.push([...c.processes]));
    const forked = await runtime.processes.fork('p-a', { seq: 3, context: 'past', id: 'p-f' });
    expect([forked.id, forked.status]).toEqual(['p-f', 'waiting']);
    const sent = proxy.seen.find((s) => s.path === '/process/p-f/fork/send')!;
    expect(JSON.parse(sent.body)).toEqual({ from: 'p-a', seq: 3, context: 'past' });
    expect(sent.headers['idempotency-key']).toMatch(/^p-[0-9a-f]{24}$/);
    expect(told).toContainEqual(['p-f']);
    runtime.close();
  });

  it('sends a control once, with an idempotency key, and answers the record as it now is', async () => {
    const routes = routesOfThree();
    routes['/process/p-a/stop'] = () => [
      200,
      { id: 'p-a', flow: 'order', status: 'stopped', error: null, due: null },
    ];
    routes['/process/p-a/reading'] = reading('p-a', 'stopped', 0);
    const proxy = await fakeProxy(routes);
    close = proxy.close;
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: proxy.origin, storage: memoryStorage() },
    );
    const stopped = await runtime.processes.stop('p-a');
    expect(stopped.status).toBe('stopped');
    const sent = proxy.seen.find((s) => s.path === '/process/p-a/stop/send')!;
    expect(sent.headers['idempotency-key']).toMatch(/^p-[0-9a-f]{24}$/);
    runtime.close();
  });

  it('says the server’s refusal as the server says it, and changes nothing it keeps', async () => {
    const routes = routesOfThree();
    routes['/process/p-c/retry'] = () => [400, { message: 'process "p-c" is done, not failed' }];
    const proxy = await fakeProxy(routes);
    close = proxy.close;
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: proxy.origin, storage: memoryStorage() },
    );
    await expect(runtime.processes.retry('p-c')).rejects.toThrow(
      'process "p-c" is done, not failed',
    );
    runtime.close();
  });

  it('keeps edits of a flow in the page until Deploy sends them, and says they are not deployed', async () => {
    const routes = routesOfThree();
    let deployed = '';
    routes['/wakeflow/deploy'] = (body) => {
      deployed = body;
      return [200, [{ id: 'order', signature: 's2' }]];
    };
    const proxy = await fakeProxy(routes);
    close = proxy.close;
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: proxy.origin, storage: memoryStorage() },
    );
    const states: boolean[] = [];
    runtime.onState((s) => states.push(s.saveState.saved));
    const edited = { ...flow('order'), name: 'Order, edited' } as Flow;
    await runtime.saveFlow(edited);
    expect((await runtime.flowsView()).flows[0]).toEqual(edited);
    expect(states).toEqual([true, false]);
    const done = await runtime.deploy([edited]);
    expect(done).toEqual({ ok: true, value: ['order'] });
    expect(JSON.parse(deployed)).toEqual({ format: 'flows/1', flows: [edited] });
    expect(states.at(-1)).toBe(true);
    runtime.close();
  });

  it('refuses what a server does not offer with the capability’s reason', async () => {
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: 'http://127.0.0.1:1', storage: memoryStorage() },
    );
    await expect(runtime.processes.drive('p-a')).rejects.toThrow(
      String(SERVER_CAPABILITIES.stepping),
    );
    await expect(runtime.clock.useVirtual()).rejects.toThrow(
      String(SERVER_CAPABILITIES.virtualClock),
    );
    expect(await runtime.allowOrigin('https://x.example')).toEqual({
      ok: false,
      error: SERVER_CAPABILITIES.callSettings,
    });
    // Pins are this browser's: an import that carries some is refused, one without them is not.
    const pin = { flow: 'f', node: 'n', trigger: 't', response: { status: 200 } };
    expect(await runtime.restorePins([pin as never])).toEqual({
      ok: false,
      error: SERVER_CAPABILITIES.pins,
    });
    expect(await runtime.restorePins([])).toEqual({ ok: true, value: 0 });
    runtime.close();
  });

  it('says it is reconnecting while the server does not answer a poll, and recovers when it does', async () => {
    const routes = routesOfThree();
    const answers = routes['/wakeflow/flows']!;
    const proxy = await fakeProxy(routes);
    close = proxy.close;
    let polls = 0;
    const polled: (() => void)[] = [];
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: proxy.origin, storage: memoryStorage(), pollMs: 1 },
    );
    const states: string[] = [];
    runtime.onState((s) => {
      states.push(s.saveState.saved ? 'saved' : s.saveState.error);
      polled.shift()?.();
    });
    routes['/wakeflow/flows'] = () => {
      polls++;
      return [
        502,
        { message: 'cannot reach the Restate server at http://127.0.0.1:8080', source: 'proxy' },
      ];
    };
    const stops: Promise<void>[] = [new Promise((r) => polled.push(r))];
    runtime.onChange(() => undefined);
    await stops[0];
    expect(states.at(-1)).toMatch(
      /^Reconnecting to 127\.0\.0\.1:8080: cannot reach the Restate server/,
    );
    expect(polls).toBeGreaterThan(0);
    routes['/wakeflow/flows'] = answers;
    await new Promise<void>((r) => polled.push(r));
    expect(states.at(-1)).toBe('saved');
    runtime.close();
  });

  it('asks the index only what changed since the stamp it last read, and tells the views those processes', async () => {
    const routes = routesOfThree();
    routes['/processIndex/all/changes'] = (body) =>
      (JSON.parse(body) as { since?: number }).since === 5
        ? [200, { stamp: 7, ids: ['p-b'] }]
        : [200, { stamp: 7, ids: [] }];
    const proxy = await fakeProxy(routes);
    close = proxy.close;
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: proxy.origin, storage: memoryStorage(), pollMs: 1 },
    );
    // The table's first read gives the stamp the first poll asks from.
    await runtime.processList({ offset: 0, limit: 10 });
    const told: string[][] = [];
    runtime.onChange((c) => told.push([...c.processes]));
    await expect.poll(() => told).toEqual([['p-b']]);
    const asked = () =>
      proxy.seen.filter((s) => s.path === '/processIndex/all/changes').map((s) => s.body);
    await expect.poll(() => asked().length).toBeGreaterThan(2);
    expect(asked().slice(0, 2)).toEqual(['{"since":5}', '{"since":7}']);
    // No request listed every process or read a row's process.
    expect(proxy.seen.some((s) => s.path === '/wakeflow/list' || s.path.endsWith('/reading'))).toBe(
      false,
    );
    runtime.close();
  });

  it('asks the index for the counts, a status’s ids and every name, and at most its largest window', async () => {
    const proxy = await fakeProxy(routesOfThree());
    close = proxy.close;
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: proxy.origin, storage: memoryStorage() },
    );
    expect(await runtime.processCounts()).toEqual({
      total: 3,
      byStatus: { waiting: 1, failed: 1, done: 1 },
    });
    expect(await runtime.processIds('order', 'failed')).toEqual(['p-b']);
    expect((await runtime.processNames()).map((n) => n.id)).toEqual(['p-a', 'p-b', 'p-c']);
    await runtime.processList({ offset: 0, limit: 5000 });
    const page = proxy.seen.find((s) => s.path === '/processIndex/all/page')!;
    expect(JSON.parse(page.body)).toEqual({ offset: 0, limit: 500 });
    runtime.close();
  });

  it('says it is reconnecting when a poll is not answered in time, and polls again', async () => {
    const routes = routesOfThree();
    const answers = routes['/wakeflow/flows']!;
    // The first poll's request is never answered: the runtime must not wait on it for ever.
    let held = true;
    routes['/wakeflow/flows'] = (body) => (held ? new Promise(() => {}) : answers(body));
    const proxy = await fakeProxy(routes);
    close = proxy.close;
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: proxy.origin, storage: memoryStorage(), pollMs: 1, readTimeoutMs: 20 },
    );
    const states: string[] = [];
    runtime.onState((s) => states.push(s.saveState.saved ? 'saved' : s.saveState.error));
    runtime.onChange(() => undefined);
    await expect
      .poll(() => states.at(-1))
      .toMatch(/^Reconnecting to 127\.0\.0\.1:8080: .*did not answer/);
    held = false;
    await expect.poll(() => states.at(-1)).toBe('saved');
    runtime.close();
  });

  it('names an unreachable page server in its error', async () => {
    const runtime = createRemoteRuntime(
      { url: 'http://127.0.0.1:8080' },
      { origin: 'http://127.0.0.1:1', storage: memoryStorage() },
    );
    await expect(runtime.check()).rejects.toThrow(/cannot reach/);
    runtime.close();
  });

  it('says a URL that is not a Restate ingress is not one, rather than showing its page', async () => {
    // A web server where the ingress should be: an HTML page for a 404, and for a 200.
    const answers: [number, string][] = [
      [404, '<!doctype html><h1>Not Found</h1>'],
      [200, '<!doctype html><title>My shop</title>'],
      [502, 'Bad Gateway'],
    ];
    const server = createServer((_req, res) => {
      const [status, body] = answers.shift()!;
      res.writeHead(status, { 'content-type': 'text/html' }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    close = () => new Promise((r) => server.close(() => r()));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const runtime = createRemoteRuntime(
      { url: 'https://shop.example' },
      { origin, storage: memoryStorage() },
    );
    const notIngress =
      /^https:\/\/shop\.example answered HTTP \d+.*, not as a Restate ingress answers: is it the ingress URL/;
    await expect(runtime.check()).rejects.toThrow(notIngress);
    await expect(runtime.check()).rejects.toThrow(notIngress);
    // A short plain answer is kept: it may say what is wrong.
    await expect(runtime.check()).rejects.toThrow(/answered HTTP 502: Bad Gateway, not as/);
    runtime.close();
  });
});

describe('the server chosen (serverChoice.ts)', () => {
  it('is kept across reloads, the token apart, and dropped whole', () => {
    const storage = memoryStorage();
    saveServerChoice({ url: 'http://127.0.0.1:8080', token: 'tok' }, storage);
    expect(readServerChoice(storage)).toEqual({ url: 'http://127.0.0.1:8080', token: 'tok' });
    expect(storage.getItem('wakeflow:server')).toBe('http://127.0.0.1:8080');
    clearServerChoice(storage);
    expect(readServerChoice(storage)).toBeUndefined();
    expect(storage.length).toBe(0);
  });

  it('refuses a stored URL that is not one (edited by hand) rather than connecting to it', () => {
    const storage = memoryStorage();
    storage.setItem('wakeflow:server', 'javascript:alert(1)');
    expect(readServerChoice(storage)).toBeUndefined();
  });

  it.each([
    ['', 'Enter the server’s ingress URL'],
    ['   ', 'Enter the server’s ingress URL'],
    ['127.0.0.1:8080', 'Not a URL'],
    ['localhost', 'Not a URL'],
    ['ftp://host', 'Only http and https'],
    ['http://user:pw@host:8080', 'no name or password'],
    ['http://host:8080/?a=1', 'no query'],
    ['http://host:8080/#x', 'no query'],
    [`http://host/${'a'.repeat(3000)}`, 'longer than 2,000'],
  ])('refuses an ingress URL that is not one, saying why (%#)', (text, why) => {
    const checked = checkIngressUrl(text);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.problem).toContain(why);
  });

  it('takes an http(s) URL, trimmed and without its trailing slash', () => {
    expect(checkIngressUrl(' http://127.0.0.1:8080/ ')).toEqual({
      ok: true,
      url: 'http://127.0.0.1:8080',
    });
    expect(checkIngressUrl('https://restate.example/base/')).toEqual({
      ok: true,
      url: 'https://restate.example/base',
    });
  });
});

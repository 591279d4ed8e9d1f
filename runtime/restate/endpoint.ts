import * as restate from '@restatedev/restate-sdk';
import {
  createServer,
  type Http2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
} from 'node:http2';
import { connect, type AddressInfo } from 'node:net';
import { contextObject } from './contextObject.ts';
import { contextWaker } from './contextWaker.ts';
import { endpointLogger } from './endpointLogger.ts';
import { eventIndex } from './eventIndex.ts';
import { flowObject } from './flowObject.ts';
import { NO_CALLS, type CallSettings } from './callSettings.ts';
import { processObjectWith } from './processObject.ts';
import { registry } from './registry.ts';
import { processIndex } from './processIndex.ts';
import { wakeflowService } from './wakeflowService.ts';

/** A running service endpoint: where it listens, and how to close it. */
export interface Endpoint {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * Serves wakeflow's objects over HTTP/2 on `port` (0 picks a free one), on 127.0.0.1; calls go
 * out as `calls` allows (flow serve's --allow-origin and environment; none by default). It logs
 * from RESTATE_LOGGING's level as it is now (INFO when unset), see endpointLogger.ts.
 */
export async function serveEndpoint(
  port = 9080,
  host = '127.0.0.1',
  calls: CallSettings = NO_CALLS,
): Promise<Endpoint> {
  return serveHandler(
    restate
      .endpoint()
      .bind(processObjectWith(calls))
      .bind(contextObject)
      .bind(contextWaker)
      .bind(flowObject)
      .bind(eventIndex)
      .bind(registry)
      .bind(processIndex)
      .bind(wakeflowService)
      .setLogger(endpointLogger(process.env.RESTATE_LOGGING))
      .http2Handler(),
    port,
    host,
  );
}

/** Serves a Restate endpoint's HTTP/2 handler on `port` (0 picks a free one) of `host`. */
export async function serveHandler(
  handler: (request: Http2ServerRequest, response: Http2ServerResponse) => void,
  port: number,
  host = '127.0.0.1',
): Promise<Endpoint> {
  const server: Http2Server = createServer(handler);
  const sessions = new Set<import('node:http2').ServerHttp2Session>();
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `http://${host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        // Restate keeps its HTTP/2 sessions open; they are ended so that close returns.
        for (const s of sessions) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** What a registration replaced: the endpoint the services pointed at before, if another. */
export interface Registration {
  replaced: { uri: string; answering: boolean } | null;
}

/**
 * Registers the endpoint with a Restate server's admin API. When wakeflow's services already
 * point at another endpoint that still answers, it is refused unless `replace` is given: a
 * second `flow serve` would otherwise take over the services silently, and every call would
 * hang once it stopped. An endpoint that no longer answers is replaced (and said so); the same
 * address is registered again with `force`, as after a restart with changed handlers.
 */
export async function registerEndpoint(
  adminUrl: string,
  endpointUrl: string,
  { replace = false }: { replace?: boolean } = {},
): Promise<Registration> {
  const current = await registeredUri(adminUrl);
  let replaced: Registration['replaced'] = null;
  if (current !== null && sameUri(current, endpointUrl) === false) {
    const answering = await answers(current);
    if (answering && !replace)
      throw new Error(
        `wakeflow's services are registered to ${current}, which still answers; give --replace to replace it with ${endpointUrl}`,
      );
    replaced = { uri: current, answering };
  }
  const response = await admin(adminUrl, '/deployments', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uri: endpointUrl, force: true }),
  });
  if (!response.ok) {
    const body = (await response.text()).slice(0, 500);
    throw new Error(`Restate refused to register ${endpointUrl}: ${response.status} ${body}`);
  }
  return { replaced };
}

async function admin(adminUrl: string, path: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(new URL(path, adminUrl), { ...init, signal: AbortSignal.timeout(10_000) });
  } catch (e) {
    throw new Error(`cannot reach Restate's admin API at ${adminUrl} (${(e as Error).message})`, {
      cause: e,
    });
  }
}

/** The address the `process` service is served from now, or null when it is not registered. */
async function registeredUri(adminUrl: string): Promise<string | null> {
  const service = await admin(adminUrl, '/services/process');
  if (service.status === 404) return null;
  if (!service.ok) return null;
  const { deployment_id: id } = (await service.json()) as { deployment_id?: string };
  if (id === undefined) return null;
  const deployment = await admin(adminUrl, `/deployments/${encodeURIComponent(id)}`);
  if (!deployment.ok) return null;
  return ((await deployment.json()) as { uri?: string }).uri ?? null;
}

const sameUri = (a: string, b: string) => new URL(a).href === new URL(b).href;

/** Whether something accepts connections at the endpoint's address (within a second). */
function answers(uri: string): Promise<boolean> {
  const { hostname, port } = new URL(uri);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 80), timeout: 1000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

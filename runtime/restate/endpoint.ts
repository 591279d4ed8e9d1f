import * as restate from '@restatedev/restate-sdk';
import { createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { contextObject } from './contextObject.ts';
import { contextWaker } from './contextWaker.ts';
import { eventIndex } from './eventIndex.ts';
import { flowObject } from './flowObject.ts';
import { processObject } from './processObject.ts';
import { registry } from './registry.ts';
import { wakeflowService } from './wakeflowService.ts';

/** A running service endpoint: where it listens, and how to close it. */
export interface Endpoint {
  port: number;
  url: string;
  close(): Promise<void>;
}

/** Serves wakeflow's objects over HTTP/2 on `port` (0 picks a free one), on 127.0.0.1. */
export async function serveEndpoint(port = 9080, host = '127.0.0.1'): Promise<Endpoint> {
  const handler = restate
    .endpoint()
    .bind(processObject)
    .bind(contextObject)
    .bind(contextWaker)
    .bind(flowObject)
    .bind(eventIndex)
    .bind(registry)
    .bind(wakeflowService)
    .http2Handler();
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

/**
 * Registers the endpoint with a Restate server's admin API. `force` replaces an earlier
 * registration of the same address, as after a restart with changed handlers.
 */
export async function registerEndpoint(adminUrl: string, endpointUrl: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(new URL('/deployments', adminUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri: endpointUrl, force: true }),
    });
  } catch (e) {
    throw new Error(`cannot reach Restate's admin API at ${adminUrl} (${(e as Error).message})`, {
      cause: e,
    });
  }
  if (!response.ok) {
    const body = (await response.text()).slice(0, 500);
    throw new Error(`Restate refused to register ${endpointUrl}: ${response.status} ${body}`);
  }
}

import type { TestProject } from 'vitest/node';
import { removeDataDir, startRestateNode } from '../../../scripts/restateServer.ts';
import { startTestServer } from '../../calls/fixtures/testServer.ts';
import { callSettings } from '../callSettings.ts';
import { registerEndpoint, serveEndpoint } from '../endpoint.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    restate: { ingressUrl: string; adminUrl: string; endpointUrl: string };
    /**
     * The calls' test server (runtime/calls/fixtures/testServer.ts), the one origin the endpoint
     * allows, and the value of secret `shop` (WAKEFLOW_SECRET_SHOP in the endpoint's settings).
     */
    calls: { origin: string; secret: string };
  }
}

/** The value of secret `shop`: a test's own, searched for wherever it must never be. */
const SECRET = 'sk_test_9f2c41d7e5b8';

/**
 * A Restate server on free ports with a fresh data directory, and wakeflow's endpoint on it,
 * allowed to call the tests' own HTTP server and given secret `shop` as `flow serve` takes it
 * from its environment.
 */
export default async function setup(project: TestProject) {
  const node = await startRestateNode();
  const server = await startTestServer({ secret: SECRET });
  const endpoint = await serveEndpoint(
    0,
    undefined,
    callSettings([server.origin], { WAKEFLOW_SECRET_SHOP: SECRET }),
  );
  await registerEndpoint(node.adminUrl, endpoint.url);
  project.provide('restate', {
    ingressUrl: node.ingressUrl,
    adminUrl: node.adminUrl,
    endpointUrl: endpoint.url,
  });
  project.provide('calls', { origin: server.origin, secret: SECRET });
  return async () => {
    await endpoint.close();
    await server.close();
    await node.stop();
    removeDataDir(node.baseDir);
  };
}

import { readFileSync } from 'node:fs';
import { removeDataDir, startRestateNode } from '../../../../scripts/restateServer.ts';
import { registerEndpoint, serveEndpoint } from '../../endpoint.ts';
import { IngressClient } from '../../ingressClient.ts';
import { serveBuiltApp } from '../../../../e2e/fixtures/previewServer.ts';

/**
 * A Restate server on free ports with a fresh data directory, wakeflow's endpoint on it, the
 * order-approval example deployed, and the built app served as a host would serve it (its
 * policy, and the `/ingress` proxy to loopback servers). The tests read where from the
 * environment, which Playwright's workers inherit.
 */
export default async function setup() {
  const node = await startRestateNode();
  const endpoint = await serveEndpoint(0);
  await registerEndpoint(node.adminUrl, endpoint.url);
  const deployed = await new IngressClient(node.ingressUrl).deploy(
    readFileSync('examples/order-approval.flow.json', 'utf8'),
  );
  if (!deployed.ok) throw new Error(`deploy: ${deployed.error}`);
  const app = await serveBuiltApp();
  process.env.WAKEFLOW_TEST_INGRESS = node.ingressUrl;
  process.env.WAKEFLOW_TEST_APP = app.origin;
  return async () => {
    app.close();
    await endpoint.close();
    await node.stop();
    removeDataDir(node.baseDir);
  };
}

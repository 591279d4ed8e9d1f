import type { TestProject } from 'vitest/node';
import { removeDataDir, startRestateNode } from '../../../scripts/restateServer.ts';
import { registerEndpoint, serveEndpoint } from '../endpoint.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    restate: { ingressUrl: string; adminUrl: string; endpointUrl: string };
  }
}

/** A Restate server on free ports with a fresh data directory, and wakeflow's endpoint on it. */
export default async function setup(project: TestProject) {
  const node = await startRestateNode();
  const endpoint = await serveEndpoint(0);
  await registerEndpoint(node.adminUrl, endpoint.url);
  project.provide('restate', {
    ingressUrl: node.ingressUrl,
    adminUrl: node.adminUrl,
    endpointUrl: endpoint.url,
  });
  return async () => {
    await endpoint.close();
    await node.stop();
    removeDataDir(node.baseDir);
  };
}

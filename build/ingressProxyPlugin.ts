import type { Plugin } from 'vite';
import { ingressProxy } from '../runtime/restate/ingressProxy.ts';

/**
 * The `/ingress` proxy on Vite's dev and preview servers, to Restate servers on this machine
 * only (docs/restate.md, "The workbench attached to a server"): `npm run dev` and the tests'
 * built app reach `npm run restate` without CORS, and the page keeps `connect-src 'self'`.
 */
export function ingressProxyPlugin(): Plugin {
  const proxy = ingressProxy();
  return {
    name: 'wakeflow-ingress-proxy',
    configureServer(server) {
      server.middlewares.use(proxy);
    },
    configurePreviewServer(server) {
      server.middlewares.use(proxy);
    },
  };
}

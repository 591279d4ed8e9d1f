import type { Plugin } from 'vite';

export {
  CONTENT_SECURITY_POLICY,
  HEADER_CONTENT_SECURITY_POLICY,
  RUNTIME_WORKER_POLICY,
  headerPolicyFor,
} from '../shared/contentSecurityPolicy.ts';
import { CONTENT_SECURITY_POLICY, headerPolicyFor } from '../shared/contentSecurityPolicy.ts';

/**
 * Serves the policies as headers from `vite preview`, as a host should: a meta tag does not
 * reach a worker, and only a header can say frame-ancestors.
 */
export function previewPolicy(): Plugin {
  return {
    name: 'wakeflow-preview-csp',
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        res.setHeader('Content-Security-Policy', headerPolicyFor(req.url ?? '/'));
        next();
      });
    },
  };
}

/**
 * Puts the policy into the built index.html as a meta tag. Only the build: Vite's dev server
 * injects inline scripts of its own for hot reloading.
 */
export function contentSecurityPolicy(): Plugin {
  return {
    name: 'wakeflow-csp',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend',
      },
    ],
  };
}

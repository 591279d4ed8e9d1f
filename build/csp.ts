import type { Plugin } from 'vite';

/**
 * The Content-Security-Policy of the built app. Scripts only from the app itself (no inline
 * script, no eval: JSONata, React Flow and elkjs need none); no network but the app's own origin;
 * styles may be inline because React Flow positions nodes with style attributes; pictures may be
 * data and blob URLs because the PNG/SVG export draws through them.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The policy as a header (vite preview, and what a host should send): the same, and no page
 * of another origin may frame the app (clickjacking). A meta tag cannot say that: browsers
 * ignore frame-ancestors there, so only the header carries it.
 */
export const HEADER_CONTENT_SECURITY_POLICY = `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`;

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

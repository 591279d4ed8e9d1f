// The app's Content-Security-Policy, as the build's meta tag and every host's headers say it
// (build/csp.ts for Vite; runtime/restate/uiCommand.ts for `flow ui`): plain strings, so that
// each host reads the one definition.

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
 * The policy of the runtime's Web Worker, where calls are sent (docs/security.md#calls): the
 * page's, but it may connect to any http(s) origin. A dedicated worker runs under the policy its
 * own script is served with (the HTML standard's worker policy container; Chromium since 2021),
 * not the page's, so the page and every other worker (imports, JSONata's checks) keep
 * `connect-src 'self'`. Which origins a call may reach is the workspace's allowlist, enforced
 * in the worker before any fetch (runtime/calls/sendAttempt.ts): a policy is fixed when the
 * script loads, and the allowlist changes while the app runs.
 */
export const RUNTIME_WORKER_POLICY = CONTENT_SECURITY_POLICY.replace(
  "connect-src 'self'",
  "connect-src 'self' http: https:",
);

/** The runtime worker's script as the build names it (`assets/runtimeWorker-<hash>.js`). */
const RUNTIME_WORKER_SCRIPT = /^\/assets\/runtimeWorker-[\w-]+\.js$/;

/** The header policy a host sends with the file at `path`: the runtime worker's, or the page's. */
export function headerPolicyFor(path: string): string {
  const pathname = path.split(/[?#]/, 1)[0] ?? '';
  return RUNTIME_WORKER_SCRIPT.test(pathname)
    ? `${RUNTIME_WORKER_POLICY}; frame-ancestors 'none'`
    : HEADER_CONTENT_SECURITY_POLICY;
}

import type { IncomingMessage, ServerResponse } from 'node:http';

/** Where the page sends a server's requests (web/runtime/serverChoice.ts, PROXY_PATH). */
export const PROXY_PREFIX = '/ingress/';
/** The header that names the ingress a request is for. */
export const TARGET_HEADER = 'x-wakeflow-ingress';
/** The largest body forwarded: a flows/1 file of many flows, with room. */
export const MAX_BODY = 8 * 1024 * 1024;
/** The only headers forwarded: what the ingress reads, nothing of the page's (no cookie). */
const FORWARDED = ['content-type', 'accept', 'authorization', 'idempotency-key'];

type Next = (error?: unknown) => void;

/**
 * The workbench's way to a Restate server's ingress from the page's own origin
 * (docs/restate.md, "The workbench attached to a server"): `/ingress/<path>` is forwarded to the
 * ingress named by the `x-wakeflow-ingress` header, so that the page keeps `connect-src 'self'`.
 * That custom header makes a browser send a CORS preflight first, which this server never
 * answers: another site's page cannot use the proxy. Only loopback ingresses are reached
 * unless `allowed` names others (`flow ui --ingress URL`).
 */
export function ingressProxy(options: { allowed?: readonly string[] } = {}) {
  const allowed = options.allowed?.map((u) => new URL(u).origin);
  return (req: IncomingMessage, res: ServerResponse, next: Next): void => {
    const url = req.url ?? '/';
    if (!url.startsWith(PROXY_PREFIX)) return next();
    void forward(req, res, url.slice(PROXY_PREFIX.length - 1), allowed).catch((e: unknown) =>
      refuse(res, 502, `the proxy failed: ${(e as Error).message}`),
    );
  };
}

function refuse(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ message, source: 'proxy' }));
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** The ingress a request names, or why it may not be reached. */
export function targetOf(
  header: string | string[] | undefined,
  allowed: readonly string[] | undefined,
): { ok: true; base: URL } | { ok: false; status: number; message: string } {
  if (typeof header !== 'string' || header === '')
    return { ok: false, status: 400, message: `${TARGET_HEADER}: no ingress named` };
  let base: URL;
  try {
    base = new URL(header);
  } catch {
    return {
      ok: false,
      status: 400,
      message: `${TARGET_HEADER}: not a URL: ${header.slice(0, 80)}`,
    };
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    return {
      ok: false,
      status: 400,
      message: `${TARGET_HEADER}: not an http(s) URL: ${base.protocol}`,
    };
  if (base.username !== '' || base.password !== '')
    return { ok: false, status: 400, message: `${TARGET_HEADER}: a URL with credentials` };
  const permitted = allowed ? allowed.includes(base.origin) : LOOPBACK.test(base.hostname);
  if (!permitted)
    return {
      ok: false,
      status: 403,
      message: `${base.origin} is not an ingress this page's server reaches: serve the app with flow ui --ingress ${base.origin}`,
    };
  return { ok: true, base };
}

async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  allowed: readonly string[] | undefined,
): Promise<void> {
  const target = targetOf(req.headers[TARGET_HEADER], allowed);
  if (!target.ok) return refuse(res, target.status, target.message);
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (host !== req.headers.host)
      return refuse(res, 403, `a request from another origin: ${origin}`);
  }
  // Joined under the ingress's own path; a dot segment, plain or encoded, could climb above it.
  if (/(^|\/)\.\.?(\/|$)|%2e|\\/i.test(rest))
    return refuse(res, 400, `not an ingress path: ${rest.slice(0, 80)}`);
  const url = target.base.href.replace(/\/+$/, '') + rest;

  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return refuse(res, 413, `the body is over ${MAX_BODY / 1024 / 1024} MB`);
    chunks.push(chunk as Buffer);
  }
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let answer: Response;
  try {
    answer = await fetch(url, {
      method: req.method ?? 'GET',
      headers,
      redirect: 'manual',
      ...(chunks.length > 0 && req.method !== 'GET' && req.method !== 'HEAD'
        ? { body: Buffer.concat(chunks) }
        : {}),
    });
  } catch (e) {
    const reason = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    return refuse(
      res,
      502,
      `cannot reach the Restate server at ${target.base.origin} (${reason}); is it running? (npm run restate)`,
    );
  }
  const body = Buffer.from(await answer.arrayBuffer());
  res.writeHead(answer.status, {
    'content-type': answer.headers.get('content-type') ?? 'application/octet-stream',
  });
  res.end(body);
}

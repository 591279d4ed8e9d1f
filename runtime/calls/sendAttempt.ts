import { originOf, parseUrl, type OriginAllowlist } from './originAllowlist.ts';
import type { OriginLimiter } from './originLimiter.ts';
import { readAnswer } from './readAnswer.ts';
import type { AttemptResult, RecordedCall } from './recordedCall.ts';
import { fillSecrets, scrubSecrets, type SecretSource } from './secrets.ts';

/** Starts a timer of real time and returns what cancels it; tests pass one they fire themselves. */
export type StartTimer = (ms: number, fire: () => void) => () => void;

const realTimer: StartTimer = (ms, fire) => {
  const id = setTimeout(fire, ms);
  return () => clearTimeout(id);
};

export interface AttemptSettings {
  secrets: SecretSource;
  allow: OriginAllowlist;
  limiter: OriginLimiter;
  /** The wait's Idempotency-Key (see idempotencyKey.ts). */
  key: string;
  fetch?: typeof fetch;
  /** Times the attempt's `timeout`; real time by default, since the server answers in real time. */
  startTimer?: StartTimer;
  /** The time an answer's `Retry-After` date is measured from. */
  now?: () => number;
  /** Set when the runtime runs in a page, where a CORS refusal reaches fetch as a network error. */
  inBrowser?: boolean;
  /** Ends the attempt without an outcome: the wait is gone (cancelled, stopped, another trigger). */
  signal?: AbortSignal;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// A header value may hold visible characters, spaces and tabs; no line break, no NUL.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\uffff]*$/;

/**
 * Sends one attempt of a recorded call (docs/format.md#calls) and never throws for anything the
 * call or the server does: a refusal before sending (a secret not set, a URL that is not http(s),
 * an origin not allowed, a header that cannot be sent), no answer ("network: …", "timeout") and
 * every answer all come back as a result. Only `settings.signal` ends it with a rejection, since
 * then nobody wants the outcome.
 */
export async function sendAttempt(
  call: RecordedCall,
  settings: AttemptSettings,
): Promise<AttemptResult> {
  const filled = fillSecrets(call, settings.secrets);
  if (!filled.ok) return refused(filled.error);
  const request = filled.value;
  const problem = requestProblem(call, request);
  if (problem) return refused(problem);
  const origin = originOf(request.url)!;
  if (!settings.allow.allows(origin)) return refused('origin not allowed');

  const release = await settings.limiter.acquire(origin, settings.signal);
  const controller = new AbortController();
  let timedOut = false;
  const stopTimer = (settings.startTimer ?? realTimer)(call.timeout, () => {
    timedOut = true;
    controller.abort();
  });
  const onAbort = () => controller.abort();
  settings.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const headers = new Headers(request.headers);
    // The runtime's key, never one the flow wrote: it is what makes a re-send recognisable.
    headers.set('Idempotency-Key', settings.key);
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      if (!headers.has('content-type')) headers.set('Content-Type', 'application/json');
    }
    const response = await (settings.fetch ?? fetch)(request.url, {
      method: call.method,
      headers,
      body,
      signal: controller.signal,
      // A redirect is an answer, not followed: following it could reach an origin not allowed.
      redirect: 'manual',
    });
    if (response.type === 'opaqueredirect') {
      return noAnswer(
        'refused: the server answered with a redirect, which calls do not follow',
        undefined,
        true,
      );
    }
    const result = await readAnswer(response, { now: (settings.now ?? Date.now)() });
    return { ...result, outcome: scrubSecrets(result.outcome, filled.used) };
  } catch (error) {
    settings.signal?.throwIfAborted();
    if (timedOut) return noAnswer('timeout', 'timeout', true);
    // Scrubbed too: a cause may quote the host or the URL, which a secret may be part of.
    const message = scrubSecrets(networkMessage(error, settings.inBrowser === true), filled.used);
    return noAnswer(message, 'network', true);
  } finally {
    stopTimer();
    settings.signal?.removeEventListener('abort', onAbort);
    release();
  }
}

/** What makes a filled request impossible to send, in words that never hold a secret's value. */
function requestProblem(
  call: RecordedCall,
  request: { url: string; headers: Record<string, string>; body?: unknown },
): string | undefined {
  if (!METHODS.has(call.method))
    return `method "${clip(call.method)}" is not GET, POST, PUT, PATCH or DELETE`;
  const url = parseUrl(request.url);
  // The recorded URL is named, not the filled one: a secret may sit in it.
  if (!url || originOf(request.url) === undefined)
    return `"${clip(call.url)}" is not an http(s) URL`;
  if (url.username || url.password)
    return 'the URL holds a user name or password; send credentials in a header';
  for (const [name, value] of Object.entries(request.headers)) {
    if (!TOKEN.test(name)) return `"${clip(name)}" is not a header name`;
    if (!FIELD_VALUE.test(value))
      return `header "${name}" holds a line break or a control character`;
  }
  if (request.body !== undefined && call.method === 'GET')
    return 'a GET request cannot carry a body';
  return undefined;
}

function refused(message: string): AttemptResult {
  return noAnswer(`refused: ${message}`, undefined, false);
}

function noAnswer(error: string, failure: AttemptResult['failure'], sent: boolean): AttemptResult {
  return { outcome: { ok: false, status: 0, headers: {}, body: null, error }, failure, sent };
}

/** "network: …" with the cause Node gives (ECONNRESET…), and in a page what a CORS refusal looks like. */
function networkMessage(error: unknown, inBrowser: boolean): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code;
  const detail = cause ? ` (${typeof code === 'string' ? `${code}: ` : ''}${cause.message})` : '';
  const base = `network: ${message}${detail}`;
  if (!inBrowser) return base;
  return (
    `${base}. In a browser this is also how a server that does not allow this page's origin (CORS) ` +
    'is refused: allow the origin on that server, pin a response in a scenario, or run the flow on Restate'
  );
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

import { MAX_VALUE_CHARS } from '../../shared/contextWrite.ts';
import { parseJsonText } from '../../shared/jsonText.ts';
import type { AttemptResult } from './recordedCall.ts';
import { parseRetryAfter } from './retryPolicy.ts';

/**
 * Bytes of an answer's body read at most: the outcome goes into the context, which holds a value
 * of at most MAX_VALUE_CHARS characters as JSON; anything longer is "too large" however it parses.
 */
export const MAX_ANSWER_BYTES = MAX_VALUE_CHARS;

/**
 * The outcome of an answer (docs/format.md#calls), its body read as a stream and given up as soon
 * as it passes `maxBytes`, so that a gigabyte answer is never held. A 2xx answer is ok unless it
 * is too large or says JSON and is not; any other status fails, as that status, for `retry.on`.
 */
export async function readAnswer(
  response: Response,
  { now, maxBytes = MAX_ANSWER_BYTES }: { now: number; maxBytes?: number },
): Promise<AttemptResult> {
  const status = response.status;
  const headers: Record<string, string> = {};
  // Headers iterates names in lower case, repeated ones joined with ", ".
  response.headers.forEach((value, name) => (headers[name] = value));
  const answered = status >= 200 && status <= 299;
  const base = {
    failure: answered ? undefined : status,
    retryAfter: parseRetryAfter(response.headers.get('retry-after'), now),
    sent: true,
  };
  const text = await readText(response, maxBytes);
  if (text === undefined) return tooLarge(status, headers, base);
  const body = parseBody(text, headers['content-type']);
  const outcome = body.ok
    ? { ok: answered, status, headers, body: body.value }
    : { ok: false, status, headers, body: text, ...(answered ? { error: body.error } : {}) };
  if (JSON.stringify(outcome).length > MAX_VALUE_CHARS) return tooLarge(status, headers, base);
  return { outcome, ...base };
}

function tooLarge(
  status: number,
  headers: Record<string, string>,
  base: Omit<AttemptResult, 'outcome'>,
): AttemptResult {
  const kept = JSON.stringify(headers).length > MAX_VALUE_CHARS / 2 ? {} : headers;
  return { outcome: { ok: false, status, headers: kept, body: null, error: 'too large' }, ...base };
}

/** The body as text, or undefined once it passes `maxBytes` (the rest is never read). */
async function readText(response: Response, maxBytes: number): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function parseBody(
  text: string,
  contentType: string | undefined,
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (!contentType || !JSON_TYPE.test(contentType.trim())) return { ok: true, value: text };
  if (text.trim() === '') return { ok: true, value: null };
  // parseJsonText also strips keys that could reach a prototype: the body comes from outside.
  const parsed = parseJsonText(text);
  if (parsed.ok) return { ok: true, value: parsed.value };
  return {
    ok: false,
    error: `malformed: the answer says ${contentType} but is not JSON (${parsed.error})`,
  };
}

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
  const text = await readText(response, maxBytes);
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now);
  if (text === undefined) return answerResult(status, headers, { tooLarge: true }, retryAfter);
  return answerResult(status, headers, parseBody(text, headers['content-type']), retryAfter);
}

/** The parsed body of an answer, or why it has none to give. */
export type AnswerBody =
  { ok: true; value: unknown } | { ok: false; error: string; text: string } | { tooLarge: true };

/**
 * The result of an answer (one read from a server, or one a scenario gives): a 2xx is ok unless
 * its body is too large or malformed; any other status fails as that status, for `retry.on`. An
 * outcome whose JSON passes the value limit is "too large", whatever made it so.
 */
export function answerResult(
  status: number,
  headers: Record<string, string>,
  body: AnswerBody,
  retryAfter: number | undefined,
): AttemptResult {
  const answered = status >= 200 && status <= 299;
  const base = {
    failure: answered ? undefined : status,
    ...(retryAfter === undefined ? {} : { retryAfter }),
    sent: true,
  };
  if ('tooLarge' in body) return tooLarge(status, headers, base);
  const outcome = body.ok
    ? { ok: answered, status, headers, body: body.value }
    : { ok: false, status, headers, body: body.text, ...(answered ? { error: body.error } : {}) };
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

function parseBody(text: string, contentType: string | undefined): AnswerBody {
  if (!contentType || !JSON_TYPE.test(contentType.trim())) return { ok: true, value: text };
  if (text.trim() === '') return { ok: true, value: null };
  // parseJsonText also strips keys that could reach a prototype: the body comes from outside.
  const parsed = parseJsonText(text);
  if (parsed.ok) return { ok: true, value: parsed.value };
  return {
    ok: false,
    text,
    error: `malformed: the answer says ${contentType} but is not JSON (${parsed.error})`,
  };
}

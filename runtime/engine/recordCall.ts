import { CALL_DEFAULTS, DEFAULT_RETRY_ON, durationMs } from '../../shared/callRules.ts';
import { toJsonValue } from '../../shared/contextWrite.ts';
import type { Call, Trigger } from '../../shared/schema.ts';
import type { JsonValue, RecordedCall } from './snapshot.ts';

/** One expression of a call, named as a message names it. */
export interface CallExpression {
  /** `url`, `header "X-A"` or `body`. */
  field: string;
  text: string;
}

/** The expressions of a call, in the order they are evaluated: url, headers as listed, body. */
export function callExpressions(call: Call): CallExpression[] {
  const out: CallExpression[] = [{ field: 'url', text: call.url }];
  for (const [name, text] of Object.entries(call.headers ?? {}))
    out.push({ field: `header ${JSON.stringify(name)}`, text });
  if (call.body !== undefined) out.push({ field: 'body', text: call.body });
  return out;
}

const HTTP_URL = /^https?:\/\/./i;
const PLACEHOLDER = /\{\{secret:[A-Za-z0-9_.-]+\}\}/;
// A line break or NUL in a header's value would let a value end the header and begin another.
const HEADER_BREAK = /[\r\n\0]/;

const describe = (v: unknown): string =>
  v === undefined ? 'nothing' : Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v;

/**
 * The request of a call trigger from its expressions' values (as `callExpressions` lists them),
 * every default filled in (docs/format.md#calls); or why it cannot be sent, naming the field.
 * A URL holding a secret's placeholder is checked for its scheme only: the sender checks the
 * URL it makes once the value is in.
 */
export function recordCall(
  trigger: Trigger & { call: Call },
  values: readonly unknown[],
): { ok: true; call: RecordedCall } | { ok: false; error: string } {
  const call = trigger.call;
  const fail = (field: string, why: string) => ({
    ok: false as const,
    error: `trigger ${JSON.stringify(trigger.id)} ${field}: ${why}`,
  });
  const url = values[0];
  if (typeof url !== 'string') return fail('url', `gives ${describe(url)}, not a URL as text`);
  if (!HTTP_URL.test(url) || (!PLACEHOLDER.test(url) && !URL.canParse(url)))
    return fail('url', `${JSON.stringify(url.slice(0, 200))} is not an http:// or https:// URL`);

  const headers: Record<string, string> = {};
  const names = Object.keys(call.headers ?? {});
  for (let i = 0; i < names.length; i++) {
    const value = values[1 + i];
    const field = `header ${JSON.stringify(names[i])}`;
    if (typeof value !== 'string') return fail(field, `gives ${describe(value)}, not text`);
    if (HEADER_BREAK.test(value)) return fail(field, 'holds a line break, which no header may');
    headers[names[i]!] = value;
  }

  const recorded: RecordedCall = {
    trigger: trigger.id,
    method: call.method ?? CALL_DEFAULTS.method,
    url,
    headers,
    timeout: 0,
  };
  if (call.body !== undefined) {
    const json = toJsonValue(values[1 + names.length]);
    if (!json.ok) return fail('body', `cannot be sent: it ${json.error}`);
    if (json.value !== undefined) recorded.body = json.value as JsonValue;
  }

  // Durations were validated with the flow; one that was not is refused rather than guessed at.
  const ms = (text: string): number | string => {
    const value = durationMs(text);
    return value === undefined ? `"${text}" is not an ISO-8601 duration` : value;
  };
  const timeout = ms(call.timeout ?? CALL_DEFAULTS.timeout);
  if (typeof timeout === 'string') return fail('timeout', timeout);
  recorded.timeout = timeout;
  const r = call.retry;
  if (r) {
    const interval = ms(r.interval ?? CALL_DEFAULTS.retry.interval);
    if (typeof interval === 'string') return fail('retry interval', interval);
    // Without a cap of its own, an interval longer than the default cap is its own cap.
    const cap =
      r.maxInterval === undefined
        ? Math.max(interval, durationMs(CALL_DEFAULTS.retry.maxInterval)!)
        : ms(r.maxInterval);
    if (typeof cap === 'string') return fail('retry maxInterval', cap);
    recorded.retry = {
      max: r.max ?? CALL_DEFAULTS.retry.max,
      interval,
      backoff: r.backoff ?? CALL_DEFAULTS.retry.backoff,
      maxInterval: cap,
      on: [...(r.on ?? DEFAULT_RETRY_ON)],
    };
  }
  return { ok: true, call: recorded };
}

import { CALL_DEFAULTS, CALL_LIMITS, durationMs } from './callRules.ts';
import { durationProblem } from './duration.ts';
import { expressionAst, expressionProblem } from './expressionSyntax.ts';
import { quote } from './quote.ts';
import type { Call } from './schema.ts';
import { secretUses } from './secretRefs.ts';

/**
 * The field of a call a problem is in, so a form can show it under that field: `url`, `body`,
 * `timeout`, `headers` (their count), `header:NAME` (its name), `header-value:NAME`, and
 * `retry.max`, `retry.backoff`, `retry.interval`, `retry.maxInterval`.
 */
export type CallField = string;

/** One reason a call cannot be made, with the rule it breaks and the field it is in. */
export interface CallProblem {
  rule: string;
  message: string;
  field: CallField;
}

/** A header name as HTTP has it: a token (RFC 9110, section 5.6.2). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;

/**
 * Headers the runtime writes itself, which a flow may not set: the key that lets a server tell
 * a repeat, and what the sender computes from the request.
 */
const RUNTIME_HEADERS = ['idempotency-key', 'content-length', 'host'];

const HTTP_URL = /^https?:\/\//i;

/**
 * What keeps a call trigger from being made (docs/format.md#calls), each message naming the
 * field: expressions that do not parse, a literal URL that is not http(s), header names, the
 * durations and the retry's bounds, and `$secret` used other than as `$secret('name')`.
 */
export function callProblems(call: Call): CallProblem[] {
  const problems: CallProblem[] = [];
  let field: CallField = 'url';
  const add = (rule: string, message: string) => problems.push({ rule, message, field });

  const expression = (what: string, text: string) => {
    const p = expressionProblem(text);
    if (p) return add('expression-syntax', `${what}: the expression ${p}`);
    for (const s of secretUses(text).problems) add('secret-use', `${what}: ${s}`);
  };

  expression('url', call.url);
  if (expressionProblem(call.url) === undefined) {
    const literal = literalString(call.url);
    if (literal !== undefined && !HTTP_URL.test(literal))
      add('call-url', `url: ${quote(literal)} is not an http:// or https:// URL`);
    else if (literal !== undefined && !URL.canParse(literal))
      add('call-url', `url: ${quote(literal)} is not a URL`);
  }

  const headers = Object.entries(call.headers ?? {});
  field = 'headers';
  if (headers.length > CALL_LIMITS.maxHeaders) {
    add(
      'call-headers',
      `has ${headers.length.toLocaleString('en')} headers; at most ${CALL_LIMITS.maxHeaders} are allowed`,
    );
  } else {
    const seen = new Set<string>();
    for (const [name, value] of headers) {
      field = `header:${name}`;
      const lower = name.toLowerCase();
      if (!HEADER_NAME.test(name))
        add('call-headers', `header ${quote(name)}: not a header name (letters, digits, "-" …)`);
      else if (RUNTIME_HEADERS.includes(lower))
        add('call-headers', `header ${quote(name)}: the runtime sets it; leave it out`);
      else if (seen.has(lower))
        add('call-headers', `header ${quote(name)}: named twice (names ignore case)`);
      seen.add(lower);
      field = `header-value:${name}`;
      expression(`header ${quote(name)}`, value);
    }
  }

  field = 'body';
  if (call.body !== undefined) expression('body', call.body);

  const duration = (what: string, text: string | undefined, min: 'zero' | 'above zero') => {
    if (text === undefined) return undefined;
    const p = durationProblem(text);
    if (p) return void add('call-duration', `${what}: ${p}`);
    const ms = durationMs(text)!;
    if (min === 'above zero' && ms <= 0)
      return void add('call-duration', `${what}: must be longer than no time at all`);
    return ms;
  };
  field = 'timeout';
  const timeout = duration('timeout', call.timeout, 'above zero');
  if (timeout !== undefined && timeout > durationMs(CALL_LIMITS.maxTimeout)!)
    add('call-duration', `timeout: at most ${CALL_LIMITS.maxTimeout} is allowed`);

  const retry = call.retry;
  if (retry) {
    field = 'retry.max';
    if (retry.max !== undefined && retry.max > CALL_LIMITS.maxRetries)
      add(
        'call-retry',
        `retry max: ${retry.max.toLocaleString('en')} is more than the ${CALL_LIMITS.maxRetries} retries allowed`,
      );
    field = 'retry.backoff';
    if (retry.backoff !== undefined && retry.backoff > CALL_LIMITS.maxBackoff)
      add('call-retry', `retry backoff: at most ${CALL_LIMITS.maxBackoff} is allowed`);
    field = 'retry.interval';
    const interval = duration('retry interval', retry.interval, 'zero');
    field = 'retry.maxInterval';
    const cap = duration('retry maxInterval', retry.maxInterval, 'above zero');
    if (cap !== undefined && cap < (interval ?? durationMs(CALL_DEFAULTS.retry.interval)!))
      add('call-retry', 'retry maxInterval: is shorter than the interval it caps');
  }
  return problems;
}

/** The text of an expression that is a string literal and nothing else; undefined otherwise. */
function literalString(text: string): string | undefined {
  const ast = expressionAst(text) as { type?: unknown; value?: unknown };
  return ast.type === 'string' && typeof ast.value === 'string' ? ast.value : undefined;
}

/**
 * Where secret values come from when an attempt is sent: the workspace's secrets in the browser,
 * the environment on a server (docs/format.md#calls). Never stored with a flow or a process.
 */
export interface SecretSource {
  get(name: string): string | undefined;
}

/** A source with no secret at all: every placeholder fails its attempt. */
export const noSecrets: SecretSource = { get: () => undefined };

/** A source over a plain record, e.g. the environment variables given to a server. */
export function secretsFrom(values: Readonly<Record<string, string | undefined>>): SecretSource {
  return { get: (name) => (Object.hasOwn(values, name) ? values[name] : undefined) };
}

/** `$secret('shop')` evaluates to this text; the sender puts the value in its place. */
export const secretPlaceholder = (name: string): string => `{{secret:${name}}}`;

const PLACEHOLDER = /\{\{secret:([A-Za-z0-9_.-]+)\}\}/g;

/** The request with its secrets filled in, and the values used (so the answer can be scrubbed). */
export type Filled<T> =
  { ok: true; value: T; used: Map<string, string> } | { ok: false; error: string };

/**
 * Fills placeholders in the url, the header values and the string leaves of the body (no other
 * place: a header name or a body key is never a secret). A placeholder whose secret is not set
 * fails with its name, never a value.
 */
export function fillSecrets(
  request: { url: string; headers: Record<string, string>; body?: unknown },
  source: SecretSource,
): Filled<{ url: string; headers: Record<string, string>; body?: unknown }> {
  const used = new Map<string, string>();
  let missing: string | undefined;
  const fill = (text: string): string =>
    text.replace(PLACEHOLDER, (whole, name: string) => {
      const value = source.get(name);
      if (value === undefined) {
        missing ??= name;
        return whole;
      }
      used.set(name, value);
      return value;
    });
  const url = fill(request.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name] = fill(value);
  const body = request.body === undefined ? undefined : mapStrings(request.body, fill);
  if (missing !== undefined) return { ok: false, error: `secret "${missing}" is not set` };
  return { ok: true, value: { url, headers, body }, used };
}

/**
 * The answer with every secret value that was sent replaced by its placeholder again: a server
 * that echoes a request (or a body built from a context that held a placeholder) must not put
 * the value into the context. Values shorter than 4 characters are left, since they would match
 * ordinary text.
 */
export function scrubSecrets<T>(value: T, used: ReadonlyMap<string, string>): T {
  const pairs = [...used]
    .filter(([, v]) => v.length >= 4)
    .sort((a, b) => b[1].length - a[1].length);
  if (pairs.length === 0) return value;
  const scrub = (text: string) =>
    pairs.reduce((t, [name, v]) => t.split(v).join(secretPlaceholder(name)), text);
  return mapStrings(value, scrub) as T;
}

function mapStrings(value: unknown, fn: (text: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapStrings(v, fn);
    return out;
  }
  return value;
}

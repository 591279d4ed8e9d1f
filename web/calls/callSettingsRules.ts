import { SECRET_NAME } from '../../shared/secretName.ts';

/** Origins a workspace may allow: enough for every service a flow calls, not a dump of a list. */
export const MAX_ORIGINS = 200;
/** Secrets a workspace may keep. */
export const MAX_SECRETS = 200;
/** The longest secret value, in characters: a token or a key, never a file. */
export const MAX_SECRET_LENGTH = 8192;
/**
 * The shortest secret value. The sender masks a value sent in its answer only from 4 characters
 * (runtime/calls/secrets.ts, scrubSecrets): a shorter one could come back unmasked.
 */
export const MIN_SECRET_LENGTH = 4;
/** The longest origin text read at all: a URL's origin is far shorter. */
const MAX_ORIGIN_TEXT = 2048;

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}...` : text);

/**
 * An origin as the allowlist keeps it (docs/format.md#calls): `https://shop.example`, as `URL`
 * normalises it (lower-case host, default port dropped), from text naming an http(s) origin and
 * nothing more. A path, a query, a fragment or a user name is refused rather than dropped: the
 * list allows whole origins, and a designer who typed a path may think it allows only that path.
 */
export function checkOrigin(input: unknown): Checked<string> {
  if (typeof input !== 'string') return { ok: false, error: 'an origin is text' };
  const text = input.trim();
  if (text === '') return { ok: false, error: 'write an origin, such as https://shop.example' };
  if (text.length > MAX_ORIGIN_TEXT)
    return { ok: false, error: `an origin is at most ${MAX_ORIGIN_TEXT} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, error: `"${clip(text)}" is not an origin such as https://shop.example` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, error: `"${clip(text)}" is not http:// or https://` };
  if (url.host === '') return { ok: false, error: `"${clip(text)}" names no host` };
  if (url.username || url.password)
    return { ok: false, error: 'an origin holds no user name or password' };
  if (url.pathname !== '/' || url.search || url.hash || /[?#]$/.test(text))
    return {
      ok: false,
      error: `an origin has no path, query or fragment: allow ${url.origin} for every path of it`,
    };
  return { ok: true, value: url.origin };
}

/** A secret's name: what `$secret('name')` accepts in a flow (shared/secretRefs.ts). */
export function checkSecretName(input: unknown): Checked<string> {
  if (typeof input !== 'string') return { ok: false, error: "a secret's name is text" };
  if (input === '') return { ok: false, error: 'write a name, such as shop' };
  if (!SECRET_NAME.test(input))
    return {
      ok: false,
      error: `"${clip(input)}" is not a secret's name: up to 100 letters, digits, "_", "." and "-"`,
    };
  return { ok: true, value: input };
}

/** A secret's value; the message never repeats it. */
export function checkSecretValue(input: unknown): Checked<string> {
  if (typeof input !== 'string') return { ok: false, error: "a secret's value is text" };
  if (input.length < MIN_SECRET_LENGTH)
    return {
      ok: false,
      error: `a secret's value is at least ${MIN_SECRET_LENGTH} characters, so that it can be masked in answers`,
    };
  if (input.length > MAX_SECRET_LENGTH)
    return {
      ok: false,
      error: `a secret's value is at most ${MAX_SECRET_LENGTH.toLocaleString('en')} characters`,
    };
  // A header value can hold no line break or control character (runtime/calls/sendAttempt.ts).
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(input))
    return { ok: false, error: "a secret's value holds no line break or control character" };
  return { ok: true, value: input };
}

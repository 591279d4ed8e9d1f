import { allowOrigins, type OriginAllowlist } from '../calls/originAllowlist.ts';
import { DEFAULT_PER_ORIGIN, OriginLimiter } from '../calls/originLimiter.ts';
import type { SecretSource } from '../calls/secrets.ts';

/**
 * How `flow serve`'s endpoint sends calls (docs/restate.md#calls): the origins it may reach
 * (`--allow-origin`, none by default) and where `$secret(name)` values come from (the
 * endpoint's environment). Held by the endpoint process alone: nothing of it reaches Restate.
 */
export interface CallSettings {
  allow: OriginAllowlist;
  secrets: SecretSource;
  /** Requests in flight per origin at most, over all of the endpoint's invocations. */
  limiter: OriginLimiter;
  /** A test's fetch; the global one when absent. */
  fetch?: typeof fetch;
}

/** No origin allowed, no secret: every attempt is refused unsent, as in a new workspace. */
export const NO_CALLS: CallSettings = callSettings([], {});

export function callSettings(
  origins: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  perOrigin = DEFAULT_PER_ORIGIN,
): CallSettings {
  return {
    allow: allowOrigins(origins),
    secrets: secretsFromEnv(env),
    limiter: new OriginLimiter(perOrigin),
  };
}

/**
 * The environment variable that holds secret `name`: `WAKEFLOW_SECRET_` and the name upper-cased,
 * every character but a letter or digit written `_` (`shop` → `WAKEFLOW_SECRET_SHOP`,
 * `shop.api-key` → `WAKEFLOW_SECRET_SHOP_API_KEY`).
 */
export const secretVariable = (name: string): string =>
  `WAKEFLOW_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/**
 * Secrets read from the environment as each attempt is sent (not copied at start, so the value
 * lives only where the environment keeps it). An empty variable counts as set: it is the
 * operator's to say a secret is empty.
 */
export function secretsFromEnv(env: Readonly<Record<string, string | undefined>>): SecretSource {
  return {
    get: (name) => {
      const variable = secretVariable(name);
      return Object.hasOwn(env, variable) ? env[variable] : undefined;
    },
  };
}

/**
 * The `--allow-origin` values, checked: each an http(s) origin (a path is refused, since it
 * would suggest a narrower rule than an origin is) or `*`; the first bad one named.
 */
export function parseOrigins(values: readonly string[]):
  | { ok: true; origins: string[] }
  | {
      ok: false;
      error: string;
    } {
  const origins: string[] = [];
  for (const value of values) {
    if (value === '*') {
      origins.push(value);
      continue;
    }
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.host === '')
      return {
        ok: false,
        error: `"${value}" is not an http(s) origin such as https://shop.example`,
      };
    if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '')
      return {
        ok: false,
        error: `"${value}" is more than an origin: give scheme, host and port only (${url.origin})`,
      };
    origins.push(url.origin);
  }
  return { ok: true, origins };
}

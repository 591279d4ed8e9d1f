/**
 * The origins a runtime lets calls reach (docs/format.md#calls): the workspace's list in the
 * browser, a flag of the server elsewhere. `*` allows every origin, for a server whose operator
 * means it; an empty list allows none.
 */
export interface OriginAllowlist {
  allows(origin: string): boolean;
}

/** An allowlist of origins written as URLs (`https://shop.example`, path ignored) or `*`. */
export function allowOrigins(entries: readonly string[]): OriginAllowlist {
  if (entries.includes('*')) return { allows: () => true };
  const origins = new Set<string>();
  for (const entry of entries) {
    const origin = originOf(entry);
    if (origin === undefined)
      throw new Error(`"${entry}" is not an http(s) origin such as https://shop.example`);
    origins.add(origin);
  }
  return { allows: (origin) => origins.has(origin) };
}

/** The origin of an http(s) URL, normalised as `URL` does (lower-case host, default port dropped). */
export function originOf(text: string): string | undefined {
  const url = parseUrl(text);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.host === '')
    return undefined;
  return url.origin;
}

/** `new URL` without the throw: undefined for text that is not a URL. */
export function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

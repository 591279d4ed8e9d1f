/**
 * Which runtime this browser's workbench opens: its own (the worker, "This browser"), or a
 * Restate server's, reached through the page's own origin (docs/restate.md, "The workbench
 * attached to a server"). Kept across reloads in localStorage; the token apart from the URL, so
 * that nothing that reads or exports the choice carries it, and dropped with the choice.
 */
export interface ServerChoice {
  /** The server's ingress, e.g. `http://127.0.0.1:8080`, without a trailing slash. */
  url: string;
  /** A hosted deployment's bearer token; never shown again once kept, never exported. */
  token?: string;
}

const URL_KEY = 'wakeflow:server';
const TOKEN_KEY = 'wakeflow:server-token';

/** Where the page sends a server's requests: its own origin, which forwards them (ingressProxy). */
export const PROXY_PATH = '/ingress';

export function readServerChoice(storage: Storage = localStorage): ServerChoice | undefined {
  const url = storage.getItem(URL_KEY);
  if (url === null || !checkIngressUrl(url).ok) return undefined;
  const token = storage.getItem(TOKEN_KEY);
  return token ? { url, token } : { url };
}

export function saveServerChoice(choice: ServerChoice, storage: Storage = localStorage): void {
  storage.setItem(URL_KEY, choice.url);
  if (choice.token) storage.setItem(TOKEN_KEY, choice.token);
  else storage.removeItem(TOKEN_KEY);
}

/** Back to this browser's runtime: the URL and the token both go. */
export function clearServerChoice(storage: Storage = localStorage): void {
  storage.removeItem(URL_KEY);
  storage.removeItem(TOKEN_KEY);
}

/** An ingress URL as typed: an http(s) URL with no credentials, query or fragment, or why not. */
export function checkIngressUrl(
  text: string,
): { ok: true; url: string } | { ok: false; problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'Enter the server’s ingress URL' };
  if (trimmed.length > 2000)
    return { ok: false, problem: 'The URL is longer than 2,000 characters' };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return {
      ok: false,
      problem: `Not a URL: ${trimmed.slice(0, 80)} (e.g. http://127.0.0.1:8080)`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, problem: `Only http and https reach an ingress, not ${url.protocol}` };
  if (url.username !== '' || url.password !== '')
    return { ok: false, problem: 'Put no name or password in the URL: use the token field' };
  if (url.search !== '' || url.hash !== '')
    return { ok: false, problem: 'An ingress URL has no query (?) or fragment (#)' };
  return { ok: true, url: url.href.replace(/\/+$/, '') };
}

/** The server as the top bar names it: its host and port. */
export const serverName = (url: string) => new URL(url).host;

/** A secret's placeholder in a recorded request (runtime/calls/secrets.ts: `{{secret:name}}`). */
const PLACEHOLDER = /\{\{secret:([A-Za-z0-9_.-]+)\}\}/g;

/**
 * A recorded request's text as the inspector shows it: each secret placeholder written as the
 * expression that made it, `$secret('name')`. A recorded request never holds a value (the sender
 * puts values in as it sends), so the name is all there is to show.
 */
export function maskSecrets(text: string): string {
  return text.replace(PLACEHOLDER, (_whole, name: string) => `$secret('${name}')`);
}

/** A recorded body as indented JSON, its secrets masked; '' when there is none. */
export function maskedBody(body: unknown): string {
  return body === undefined ? '' : maskSecrets(JSON.stringify(body, null, 2));
}

import type * as restate from '@restatedev/restate-sdk';

/**
 * State as its JSON text: bytes the same as the SDK's JSON serde writes for the value, so
 * state written through either reads back through the other.
 */
const JSON_TEXT: restate.Serde<string> = {
  contentType: 'application/json',
  serialize: (text: string) => new TextEncoder().encode(text),
  deserialize: (bytes: Uint8Array) => new TextDecoder().decode(bytes),
};

/**
 * One invocation's view of its Virtual Object's state: each key is read from Restate once, and
 * later reads answer from what was read or written since. Every `ctx.get` is an entry of the
 * invocation's journal (with the value it read), appended to Restate's log like any other; a
 * wake that asked for its record four times wrote it to the log four times.
 *
 * Writes go through at once (`ctx.set`, `ctx.clear`), in the order made, as before: only reads
 * are saved. Values are kept as their JSON text and parsed on each read, so a caller that
 * changes what it read changes its own copy, never what a later read answers.
 *
 * It holds for one invocation only: the handler is the object's one writer meanwhile
 * (exclusive), and a replay makes the same reads in the same order, since which reads reach
 * Restate depends only on the order of the handler's own reads and writes.
 */
export class ObjectState {
  /** Text by key as last read or written in this invocation; null: absent. */
  private readonly known = new Map<string, string | null>();

  constructor(private readonly ctx: restate.ObjectContext | restate.ObjectSharedContext) {}

  /** The value of `key`, or null when it is absent. */
  async get<T>(key: string): Promise<T | null> {
    let text = this.known.get(key);
    if (text === undefined) {
      text = await this.ctx.get<string>(key, JSON_TEXT);
      this.known.set(key, text);
    }
    return text === null ? null : (JSON.parse(text) as T);
  }

  /** Writes `value` (JSON; not undefined, which JSON cannot hold). */
  set(key: string, value: unknown): void {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) throw new Error(`state "${key}": undefined is not a value to keep`);
    this.writable().set(key, text, JSON_TEXT);
    this.known.set(key, text);
  }

  clear(key: string): void {
    this.writable().clear(key);
    this.known.set(key, null);
  }

  private writable(): restate.ObjectContext {
    if (!('set' in this.ctx)) throw new Error('a shared handler cannot write its object');
    return this.ctx as restate.ObjectContext;
  }
}

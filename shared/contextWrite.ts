import { parseContextPath } from './contextPath.ts';

/** One write to a context: `value` at `path`, or, without a value, the path removed. */
export interface ContextWrite {
  path: string;
  value?: unknown;
}

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The value at a context path, or undefined. */
export function readPath(doc: unknown, path: string): unknown {
  const parsed = parseContextPath(path);
  if ('problem' in parsed) return undefined;
  let at = doc;
  for (const key of parsed.keys) {
    if (!isObject(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

/**
 * Applies writes in order and returns the new document; the old one is left untouched, and only
 * the objects along each path are copied. A write through a value that is not an object replaces
 * it with an object, as assigning `order.total` to a context whose `order` is a number must.
 */
export function applyWrites(doc: unknown, writes: readonly ContextWrite[]): unknown {
  let root = doc;
  for (const write of writes) {
    const parsed = parseContextPath(write.path);
    // Paths were validated with the flow; a bad one here is refused rather than guessed at.
    if ('problem' in parsed) throw new Error(`cannot write to ${parsed.problem}`);
    root = writeAt(root, parsed.keys, 'value' in write, write.value);
  }
  return root;
}

function writeAt(at: unknown, keys: readonly string[], set: boolean, value: unknown): unknown {
  const [key, ...rest] = keys as [string, ...string[]];
  const obj: JsonObject = isObject(at) ? { ...at } : {};
  if (rest.length === 0) {
    if (set) obj[key] = value;
    else delete obj[key];
    return obj;
  }
  if (!set && !isObject(obj[key])) return isObject(at) ? at : obj;
  obj[key] = writeAt(obj[key], rest, set, value);
  return obj;
}

/** Largest value, as JSON text, one write may put into a context: a context is kept and sent whole. */
export const MAX_VALUE_CHARS = 1_000_000;

/**
 * A JSONata result as a JSON value the context can hold: sequences become plain arrays and
 * undefined array members are dropped. Functions cannot be held and are reported.
 */
export function toJsonValue(
  value: unknown,
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (value === undefined) return { ok: true, value: undefined };
  let sawFunction = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'function') {
      sawFunction = true;
      return undefined;
    }
    return v;
  });
  if (sawFunction) return { ok: false, error: 'yields a function, which a context cannot hold' };
  if (text !== undefined && text.length > MAX_VALUE_CHARS) {
    return {
      ok: false,
      error: `yields a value of ${text.length.toLocaleString('en')} characters; at most ${MAX_VALUE_CHARS.toLocaleString('en')} fit in a context`,
    };
  }
  return { ok: true, value: text === undefined ? undefined : JSON.parse(text) };
}

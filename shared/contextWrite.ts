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
  return applyWritesOwned(doc, writes, undefined);
}

/**
 * `applyWrites` for a caller that applies many writes in a row to a document of its own (a run
 * of steps held in memory, before it commits): the objects it copied along a path are noted in
 * `owned`, and a later write through one of them changes it in place instead of copying it
 * again. Without it, each write copies the whole top level of the context, so a run of n steps
 * each writing a key of its own costs n², as a fan-out of 1,000 branches did. The document as
 * given, and every object not in `owned`, are left untouched, exactly as `applyWrites` leaves
 * them; so `owned` must hold only objects this caller made and nobody else was handed.
 */
export function applyWritesOwned(
  doc: unknown,
  writes: readonly ContextWrite[],
  owned: Set<object> | WeakSet<object> | undefined,
): unknown {
  let root = doc;
  for (const write of writes) {
    const parsed = parsedPath(write.path);
    // Paths were validated with the flow; a bad one here is refused rather than guessed at.
    if ('problem' in parsed) throw new Error(`cannot write to ${parsed.problem}`);
    root = writeAt(root, parsed.keys, 0, 'value' in write, write.value, owned);
  }
  return root;
}

// Paths parsed once per text: a run writes the same few paths at every step. The keys are only
// read (writeAt), so one list serves every write. Texts come from flows; a bound keeps a hostile
// workspace from growing the cache.
const parsedPaths = new Map<string, ReturnType<typeof parseContextPath>>();

function parsedPath(text: string): ReturnType<typeof parseContextPath> {
  let parsed = parsedPaths.get(text);
  if (parsed === undefined) {
    parsed = parseContextPath(text);
    if (parsedPaths.size < 10_000) parsedPaths.set(text, parsed);
  }
  return parsed;
}

function writeAt(
  at: unknown,
  keys: readonly string[],
  index: number,
  set: boolean,
  value: unknown,
  owned: Set<object> | WeakSet<object> | undefined,
): unknown {
  const key = keys[index]!;
  const last = index === keys.length - 1;
  // A removal that reaches no object changes nothing: nothing is copied for it.
  if (!last && !set && !(isObject(at) && isObject(at[key]))) return isObject(at) ? at : {};
  const obj: JsonObject = isObject(at) && owned?.has(at) ? at : copyOf(at, owned);
  if (last) {
    if (set) obj[key] = value;
    else delete obj[key];
    return obj;
  }
  obj[key] = writeAt(obj[key], keys, index + 1, set, value, owned);
  return obj;
}

function copyOf(at: unknown, owned: Set<object> | WeakSet<object> | undefined): JsonObject {
  const obj: JsonObject = isObject(at) ? { ...at } : {};
  owned?.add(obj);
  return obj;
}

/** Largest value, as JSON text, one write may put into a context: a context is kept and sent whole. */
export const MAX_VALUE_CHARS = 1_000_000;

const isJsonataFunction = (v: unknown): boolean =>
  isObject(v) && (v._jsonata_lambda === true || v._jsonata_function === true);

/**
 * A JSONata result as a JSON value the context can hold: sequences become plain arrays and
 * undefined array members are dropped. Functions cannot be held and are reported.
 */
export function toJsonValue(
  value: unknown,
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (value === undefined) return { ok: true, value: undefined };
  let sawFunction = false;
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => {
      // jsonata's own functions are objects (a lambda holds its environment, which is circular).
      if (typeof v === 'function' || isJsonataFunction(v)) {
        sawFunction = true;
        return undefined;
      }
      return v;
    });
  } catch (e) {
    return { ok: false, error: `yields a value JSON cannot hold (${(e as Error).message})` };
  }
  if (sawFunction) return { ok: false, error: 'yields a function, which a context cannot hold' };
  if (text !== undefined && text.length > MAX_VALUE_CHARS) {
    return {
      ok: false,
      error: `yields a value of ${text.length.toLocaleString('en')} characters; at most ${MAX_VALUE_CHARS.toLocaleString('en')} fit in a context`,
    };
  }
  return { ok: true, value: text === undefined ? undefined : JSON.parse(text) };
}

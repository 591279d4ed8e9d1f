/**
 * A value as IndexedDB and JSON can both hold it. What JSON cannot hold (a function, a bigint, a
 * symbol, NaN or Infinity, a Date, a cycle) is stored as its text, so that keeping state never
 * stops a run (issue: nothing about keeping state may stop a run).
 */
export function toStorable(value: unknown): unknown {
  // What the engine and the supervisor store is plain JSON already: kept as it is, since the
  // database copies it anyway. Only a value with something JSON cannot hold is rebuilt.
  if (isPlainJson(value, 0)) return value;
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        return Number.isFinite(v) ? v : String(v);
      case 'undefined':
        return undefined;
      case 'bigint':
      case 'symbol':
      case 'function':
        return String(v);
    }
    if (v === null) return null;
    const obj = v as object;
    if (obj instanceof Date)
      return Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString();
    if (seen.has(obj)) return '[circular]';
    seen.add(obj);
    let out: unknown;
    if (Array.isArray(obj)) out = obj.map((x) => (x === undefined ? null : walk(x)));
    else {
      const record: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(obj)) {
        const stored = walk(x);
        if (stored !== undefined) record[k] = stored;
      }
      out = record;
    }
    seen.delete(obj);
    return out;
  };
  return walk(value);
}

/**
 * Whether `toStorable` would give back a value equal to `v`: strings, booleans, finite numbers,
 * null, and arrays (without holes) and plain objects (without undefined values) of those. Deep or
 * cyclic values answer false and take the full walk.
 */
function isPlainJson(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object':
      break;
    default:
      return false;
  }
  if (v === null) return true;
  if (depth > 100) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++)
      if (!(i in v) || !isPlainJson(v[i] as unknown, depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  const obj = v as Record<string, unknown>;
  for (const key in obj) {
    if (!Object.hasOwn(obj, key)) return false;
    const x = obj[key];
    if (x === undefined || !isPlainJson(x, depth + 1)) return false;
  }
  return true;
}

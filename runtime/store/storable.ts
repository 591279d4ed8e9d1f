/**
 * A value as IndexedDB and JSON can both hold it. What JSON cannot hold (a function, a bigint, a
 * symbol, NaN or Infinity, a Date, a cycle) is stored as its text, so that keeping state never
 * stops a run (issue: nothing about keeping state may stop a run).
 */
export function toStorable(value: unknown): unknown {
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

/** Small immutable list edits for the panel's rows; each returns a new array. */

/** Moves the item at `from` to `to`; out-of-range positions leave the list as it was. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  if (from < 0 || from >= list.length || to < 0 || to >= list.length) return copy;
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item as T);
  return copy;
}

export function removeAt<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, i) => i !== index);
}

export function replaceAt<T>(list: readonly T[], index: number, item: T): T[] {
  return list.map((x, i) => (i === index ? item : x));
}

/**
 * Where focus goes after the row at `index` is removed from a list of `length` rows: the row
 * that took its place, else the one before it, else nothing (-1).
 */
export function indexAfterRemoval(length: number, index: number): number {
  if (length <= 1) return -1;
  return Math.min(index, length - 2);
}

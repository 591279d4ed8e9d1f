import { useRef } from 'react';

/** Whether two lists hold the same items (by identity) in the same order. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A store selector that derives a list, returning the list it gave last while the items are
 * the same, so that a view renders on a change of the items only. zustand's `useShallow` does
 * this too, but compares a list by copying both into Maps: for a list of every node of a large
 * flow, that was two Maps of 5,000 entries on each frame of a drag.
 */
export function useSameItems<S, L extends readonly unknown[]>(
  select: (state: S) => L,
): (state: S) => L {
  const last = useRef<L | undefined>(undefined);
  return (state) => {
    const next = select(state);
    if (last.current && sameItems(last.current, next)) return last.current;
    return (last.current = next);
  };
}

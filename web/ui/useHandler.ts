import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A handler whose identity never changes and that calls the function of the last render: what
 * a parent passes to a memoized child (Button) so that the child does not render because a
 * closure was written anew. For events only, never called during render.
 */
export function useHandler<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}

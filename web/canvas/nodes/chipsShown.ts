import { useEffect, useState } from 'react';

/** A join's chips drawn at once: every join of a drawn flow but a very wide one. */
export const CHIPS_AT_ONCE = 500;
/** Chips added per frame after those, until all are drawn. */
export const CHIPS_PER_FRAME = 2000;

/**
 * How many of a join's `total` chips to draw: up to CHIPS_AT_ONCE at once, then CHIPS_PER_FRAME
 * more each frame. A join waiting for 10,000 branches lists 10,000 chips, a node 68,000 px
 * tall whose layout alone held the page past a frame's budget as it came into view; drawn a
 * part a frame, it is whole a few frames later and the same.
 */
export function useChipsShown(total: number): number {
  const [added, setAdded] = useState(0);
  const shown = Math.min(total, CHIPS_AT_ONCE + added);
  useEffect(() => {
    if (shown >= total) return;
    const frame = requestAnimationFrame(() => setAdded((a) => a + CHIPS_PER_FRAME));
    return () => cancelAnimationFrame(frame);
  }, [shown, total]);
  return shown;
}

import { useStore, type Edge } from '@xyflow/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { sameItems } from '../ui/useSameItems.ts';
import {
  EDGES_PER_FRAME,
  edgesNearView,
  edgesToHand,
  regionKey,
  regionOf,
  type edgesNear,
} from './edgesNearView.ts';

const everywhere = () => '';

/**
 * For a large flow (`on`), the edges to hand React Flow: those near the view (edgesNearView.ts),
 * found again when a pan leaves its cell of the plane, or when the nodes or edges change, and of
 * those new in the view at most EDGES_PER_FRAME a frame, the rest on the frames after (a split
 * into 10,000 branches brings them all into view at once). The same array while they are the
 * same edges, so that React Flow is not given new edges for nothing. A small flow's edges pass
 * through.
 */
export function useEdgesNearView<E extends Edge>(
  edges: E[],
  nodes: Parameters<typeof edgesNear>[1],
  on: boolean,
): E[] {
  const key = useStore(on ? regionKey : everywhere);
  const near = useMemo(() => {
    const region = regionOf(key);
    return region ? edgesNearView(edges, nodes, region) : undefined;
  }, [edges, nodes, key]);
  // The ids React Flow was handed at the last commit: only edges not among them wait their turn.
  const handed = useRef<ReadonlySet<string>>(new Set());
  const [frame, setFrame] = useState(0);
  const plan = useMemo(
    () =>
      near
        ? edgesToHand(near.near, near.inView, handed.current, EDGES_PER_FRAME)
        : { edges, deferred: 0 },
    // `frame` asks again for the next edges once a frame has passed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [near, edges, frame],
  );
  useEffect(() => {
    handed.current = new Set(plan.edges.map((e) => e.id));
    if (plan.deferred === 0) return;
    const next = requestAnimationFrame(() => setFrame((f) => f + 1));
    return () => cancelAnimationFrame(next);
  }, [plan]);
  const kept = useRef(plan.edges);
  if (kept.current !== plan.edges && !sameItems(kept.current, plan.edges))
    kept.current = plan.edges as E[];
  return kept.current;
}

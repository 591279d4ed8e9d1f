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
import { LAYER_ABOVE, partPlainEdges } from './plainEdges.ts';

const everywhere = () => '';
const none: never[] = [];

/** The same array while it holds the same items, so that what it is handed to does not render. */
function useSame<T>(items: readonly T[]): readonly T[] {
  const kept = useRef(items);
  if (kept.current !== items && !sameItems(kept.current, items)) kept.current = items;
  return kept.current;
}

/**
 * For a large flow (`on`), the edges to draw: those near the view (edgesNearView.ts), found again
 * when a pan leaves its cell of the plane, or when the nodes or edges change. When more than
 * LAYER_ABOVE of them are plain (`plain`), those are drawn in one layer (`layer`, for
 * PlainEdgeLayer) and React Flow is handed the rest (`edges`); of the edges it is handed, at
 * most EDGES_PER_FRAME new ones a frame, the rest on the frames after. Each list is the same
 * array while it holds the same edges, so that what draws it does not render for nothing. A
 * small flow's edges all go to React Flow.
 */
export function useEdgesNearView<E extends Edge>(
  edges: E[],
  nodes: Parameters<typeof edgesNear>[1],
  on: boolean,
  plain: (e: E) => boolean,
): { edges: E[]; layer: readonly E[] } {
  const key = useStore(on ? regionKey : everywhere);
  const near = useMemo(() => {
    const region = regionOf(key);
    if (!region) return undefined;
    const found = edgesNearView(edges, nodes, region);
    return { ...partPlainEdges(found.near, plain, LAYER_ABOVE), inView: found.inView };
  }, [edges, nodes, key, plain]);
  // The ids React Flow was handed at the last commit: only edges not among them wait their turn.
  const handed = useRef<ReadonlySet<string>>(new Set());
  const [frame, setFrame] = useState(0);
  const plan = useMemo(
    () =>
      near
        ? edgesToHand(near.flow, near.inView, handed.current, EDGES_PER_FRAME)
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
  // React Flow's prop is a mutable array type; nothing changes this one.
  const flow = useSame(plan.edges) as E[];
  const layer = useSame(near?.layer ?? none);
  return { edges: flow, layer };
}

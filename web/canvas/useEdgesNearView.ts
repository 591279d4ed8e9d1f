import { useStore, type Edge } from '@xyflow/react';
import { useMemo, useRef } from 'react';
import { sameItems } from '../ui/useSameItems.ts';
import { edgesNear, regionKey, regionOf } from './edgesNearView.ts';

const everywhere = () => '';

/**
 * For a large flow (`on`), the edges to hand React Flow: those near the view (edgesNearView.ts),
 * found again when a pan leaves its cell of the plane, or when the nodes or edges change. The
 * same array while they are the same edges, so that React Flow is not given new edges for
 * nothing. A small flow's edges pass through.
 */
export function useEdgesNearView<E extends Edge>(
  edges: E[],
  nodes: Parameters<typeof edgesNear>[1],
  on: boolean,
): E[] {
  const key = useStore(on ? regionKey : everywhere);
  const near = useMemo(() => {
    const region = regionOf(key);
    return region ? edgesNear(edges, nodes, region) : edges;
  }, [edges, nodes, key]);
  const kept = useRef(near);
  if (kept.current !== near && !sameItems(kept.current, near)) kept.current = near;
  return kept.current;
}

import { useReactFlow, useStoreApi } from '@xyflow/react';
import { useCallback } from 'react';

const MARGIN = 24;
// Room beside a node's sides, where its handles are: a connection begun from a handle within
// React Flow's auto-pan distance (40 px) of the pane's edge, moved the few pixels a hand moves
// outwards, pans the canvas away under the pointer.
const SIDE_MARGIN = 72;

/**
 * Pans the view, at the zoom it has, just enough to bring a node fully into it: a node placed or
 * moved beyond the edge of the view stays where the designer can see (and focus) it.
 */
export function useKeepInView(): (nodeId: string) => void {
  const store = useStoreApi();
  const { setViewport } = useReactFlow();
  return useCallback(
    (nodeId: string) => {
      const { nodeLookup, width, height, transform } = store.getState();
      const node = nodeLookup.get(nodeId);
      if (!node) return;
      const [tx, ty, zoom] = transform;
      const { x, y } = node.internals.positionAbsolute;
      const w = (node.measured.width ?? 170) * zoom;
      const h = (node.measured.height ?? 90) * zoom;
      const left = x * zoom + tx;
      const top = y * zoom + ty;
      let dx = 0;
      let dy = 0;
      if (left < SIDE_MARGIN) dx = SIDE_MARGIN - left;
      else if (left + w > width - SIDE_MARGIN) dx = width - SIDE_MARGIN - (left + w);
      if (top < MARGIN) dy = MARGIN - top;
      else if (top + h > height - MARGIN) dy = height - MARGIN - (top + h);
      if (dx !== 0 || dy !== 0) void setViewport({ x: tx + dx, y: ty + dy, zoom });
    },
    [setViewport, store],
  );
}

import { useNodesInitialized, useReactFlow, useStoreApi } from '@xyflow/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { openingViewport } from './openingView.ts';

/** The band at the bottom of the canvas that the minimap and the zoom controls sit in. */
export const CONTROLS_BAND = 150;

/**
 * Shows the whole flow as it opens (openingViewport): fitted, but never below the readable zoom
 * nor above 1, with no node under the minimap or the zoom controls. Returns false when its nodes
 * are not all measured yet.
 */
export function useShowFlow(): (options?: { duration?: number }) => boolean {
  const { setViewport } = useReactFlow();
  const store = useStoreApi();
  return useCallback(
    (options = {}) => {
      const { nodeLookup, width, height } = store.getState();
      const nodes = [...nodeLookup.values()];
      if (nodes.some((n) => !n.measured.width)) return false;
      const rects = nodes.map((n) => ({
        x: n.internals.positionAbsolute.x,
        y: n.internals.positionAbsolute.y,
        width: n.measured.width ?? 0,
        height: n.measured.height ?? 0,
        kind: n.type,
      }));
      const start = rects.find((r) => r.kind === 'start');
      void setViewport(openingViewport(rects, start, { width, height }, CONTROLS_BAND), options);
      return true;
    },
    [setViewport, store],
  );
}

/**
 * Opens each flow, once its nodes are measured, as useShowFlow shows it. Returns whether this
 * flow has opened, so that what moves the view afterwards does not race the opening view.
 */
export function useOpeningView(flowId: string): boolean {
  const initialized = useNodesInitialized();
  const showFlow = useShowFlow();
  const opened = useRef<string | undefined>(undefined);
  const [openedFlow, setOpenedFlow] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!initialized || opened.current === flowId) return;
    // Just after a switch of flows the last flow's nodes may still be what was measured.
    if (showFlow()) {
      opened.current = flowId;
      setOpenedFlow(flowId);
    }
  }, [initialized, flowId, showFlow]);
  return openedFlow === flowId;
}

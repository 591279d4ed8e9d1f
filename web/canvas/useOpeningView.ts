import { useNodesInitialized, useReactFlow, useStore, useStoreApi } from '@xyflow/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { NEW_NODE_SIZE } from '../designer/placement.ts';
import { useDesignerStore } from '../designer/designerStore.ts';
import { openingViewport, VIRTUALIZE_ABOVE } from './openingView.ts';

const unmeasured = (n: { measured: { width?: number } }) => !n.measured.width;

/** The band at the bottom of the canvas that the minimap and the zoom controls sit in. */
export const CONTROLS_BAND = 150;
/** How far from the canvas's right edge the minimap's corner reaches (its frame and margin). */
export const MINIMAP_CORNER = 190;

/**
 * Shows the whole flow as it opens (openingViewport): fitted, but never below the readable zoom
 * nor above 1, with no node under the minimap or the zoom controls. Returns false when its nodes
 * are not all measured yet.
 */
export function useShowFlow(): (options?: { duration?: number }) => boolean {
  const { setViewport } = useReactFlow();
  const store = useStoreApi();
  const designer = useDesignerStore();
  return useCallback(
    (options = {}) => {
      const { nodeLookup, width, height, panZoom } = store.getState();
      // A canvas just mounted pans and zooms only once its pane is set up.
      if (!panZoom || width === 0) return false;
      const nodes = [...nodeLookup.values()];
      // A large flow draws only what is in view, so the rest is never measured: those take the
      // size of a new node. Its nodes must be the open flow's, not the last flow's still.
      const large = nodes.length > VIRTUALIZE_ABOVE;
      const first = designer.getState().nodes[0];
      if (large ? first === undefined || !nodeLookup.has(first.id) : nodes.some(unmeasured))
        return false;
      const rects = nodes.map((n) => ({
        x: n.internals.positionAbsolute.x,
        y: n.internals.positionAbsolute.y,
        width: n.measured.width ?? NEW_NODE_SIZE.width,
        height: n.measured.height ?? NEW_NODE_SIZE.height,
        kind: n.type,
      }));
      const start = rects.find((r) => r.kind === 'start');
      void setViewport(openingViewport(rects, start, { width, height }, CONTROLS_BAND), options);
      return true;
    },
    [setViewport, store, designer],
  );
}

/**
 * Opens each flow, once its nodes are measured, as useShowFlow shows it. Returns whether this
 * flow has opened, so that what moves the view afterwards does not race the opening view.
 */
export function useOpeningView(flowId: string): boolean {
  const initialized = useNodesInitialized();
  // A large flow is never all measured (useShowFlow): it opens once its nodes are in the store.
  const large = useStore((s) => s.nodeLookup.size > VIRTUALIZE_ABOVE);
  const storeNodes = useStore((s) => s.nodes);
  const paneReady = useStore((s) => s.panZoom !== null && s.width > 0);
  const showFlow = useShowFlow();
  const opened = useRef<string | undefined>(undefined);
  const [openedFlow, setOpenedFlow] = useState<string | undefined>(undefined);
  useEffect(() => {
    if ((!initialized && !large) || opened.current === flowId) return;
    // Just after a switch of flows the last flow's nodes may still be what was measured.
    const open = () => {
      if (!showFlow()) return;
      opened.current = flowId;
      setOpenedFlow(flowId);
    };
    if (!large) return open();
    // A large flow opens before its nodes are measured, in the commit that mounted its canvas,
    // whose first viewport would then replace this one: a frame later.
    const frame = requestAnimationFrame(open);
    return () => cancelAnimationFrame(frame);
  }, [initialized, large, storeNodes, paneReady, flowId, showFlow]);
  return openedFlow === flowId;
}

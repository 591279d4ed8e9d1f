import { useReactFlow, useStore, useStoreApi } from '@xyflow/react';
import { useEffect } from 'react';
import { shownFlow, useInspector } from '../inspector/inspectorState.ts';
import { panToShow } from './positionInView.ts';
import { CONTROLS_BAND, MINIMAP_CORNER } from './useOpeningView.ts';

/** The states of a node that are where the process is now (the rest is what it did). */
const LIVE = new Set(['ready', 'waiting', 'running', 'stopped']);
/** Frames to wait for the flow's nodes to be on the canvas after it opens. */
const TRIES = 30;

/**
 * The nodes the selected process is at or waits on in the flow on the canvas, as one string so
 * that a store change that leaves them as they are changes nothing here.
 */
function positionKey(flowId: string) {
  return (s: Parameters<typeof shownFlow>[0] & { selected: string | undefined }) => {
    const overlay = shownFlow(s) === flowId ? s.inspection?.overlay : undefined;
    if (!overlay) return '';
    const live = [...overlay].filter(([, run]) => LIVE.has(run.state)).map(([id]) => id);
    return live.length === 0 ? '' : `${s.selected}\n${live.sort().join('\n')}`;
  };
}

/**
 * Keeps the selected process's position (the nodes it is at or waits on) in view: when a process
 * is selected, and when its position moves, the canvas pans, at the zoom it has (the opening
 * zoom rule holds), just enough to show them. A view the designer panned away from an unchanged
 * position is left alone.
 */
export function usePositionInView(flowId: string, opened: boolean): void {
  const key = useInspector(positionKey(flowId));
  // Its nodes' sizes too: a node a process waits at grows by its actions once drawn, and what
  // was in view at its first size may not be at its second.
  const sizes = useStore((s) => sizesOf(s.nodeLookup, key));
  const store = useStoreApi();
  const { setViewport } = useReactFlow();
  useEffect(() => {
    if (!key || !opened) return;
    const ids = key.split('\n').slice(1);
    let frame = 0;
    let tries = 0;
    const show = () => {
      const { nodeLookup, width, height, transform } = store.getState();
      const nodes = ids.map((id) => nodeLookup.get(id));
      if (nodes.some((n) => !n) || width === 0) {
        if (++tries < TRIES) frame = requestAnimationFrame(show);
        return;
      }
      const rects = nodes.map((n) => ({
        x: n!.internals.positionAbsolute.x,
        y: n!.internals.positionAbsolute.y,
        width: n!.measured.width ?? 170,
        height: n!.measured.height ?? 90,
      }));
      const [x, y, zoom] = transform;
      const to = panToShow(rects, { x, y, zoom }, { width, height }, CONTROLS_BAND, MINIMAP_CORNER);
      if (to) void setViewport(to, { duration: 200 });
    };
    frame = requestAnimationFrame(show);
    return () => cancelAnimationFrame(frame);
  }, [key, sizes, opened, store, setViewport]);
}

/** The measured sizes of a position's nodes (the ids of its key), as one comparable string. */
function sizesOf(
  lookup: ReadonlyMap<string, { measured: { width?: number; height?: number } }>,
  key: string,
): string {
  if (!key) return '';
  return key
    .split('\n')
    .slice(1)
    .map((id) => {
      const m = lookup.get(id)?.measured;
      return `${m?.width ?? 0}x${m?.height ?? 0}`;
    })
    .join(' ');
}

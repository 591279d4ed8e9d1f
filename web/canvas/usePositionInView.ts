import { useReactFlow, useStore, useStoreApi } from '@xyflow/react';
import { useEffect, useRef } from 'react';
import { shownFlow, useInspector } from '../inspector/inspectorState.ts';
import type { NodeRunState } from '../inspector/overlay.ts';
import { panDuration, panToShow } from './positionInView.ts';
import { CONTROLS_BAND, MINIMAP_CORNER } from './useOpeningView.ts';

/** The states of a node that are where the process is now (the rest is what it did). */
const LIVE = new Set(['ready', 'waiting', 'running', 'stopped']);
/** Frames to wait for the flow's nodes to be on the canvas after it opens. */
const TRIES = 30;

/**
 * The nodes an overlay has live, sorted, one a line; kept per overlay, which a reading makes
 * anew only when it read something new: the selector runs on every change of the inspector's
 * store, and a split into 10,000 branches has 10,000 live nodes to sort.
 */
const liveByOverlay = new WeakMap<ReadonlyMap<string, NodeRunState>, string>();
function liveOf(overlay: ReadonlyMap<string, NodeRunState>): string {
  let live = liveByOverlay.get(overlay);
  if (live === undefined) {
    const ids: string[] = [];
    for (const [id, run] of overlay) if (LIVE.has(run.state)) ids.push(id);
    live = ids.sort().join('\n');
    liveByOverlay.set(overlay, live);
  }
  return live;
}

/**
 * The nodes the selected process is at or waits on in the flow on the canvas, as one string so
 * that a store change that leaves them as they are changes nothing here.
 */
function positionKey(flowId: string) {
  return (s: Parameters<typeof shownFlow>[0] & { selected: string | undefined }) => {
    const overlay = shownFlow(s) === flowId ? s.inspection?.overlay : undefined;
    if (!overlay) return '';
    const live = liveOf(overlay);
    return live === '' ? '' : `${s.selected}\n${live}`;
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
  // was in view at its first size may not be at its second. Read again only for a new nodes
  // array (a measurement makes one), not on every change of the store, every frame of a pan.
  const kept = useRef<{ nodes: unknown; key: string; sizes: string } | undefined>(undefined);
  const sizes = useStore((s) => {
    const was = kept.current;
    if (was && was.nodes === s.nodes && was.key === key) return was.sizes;
    const now = { nodes: s.nodes, key, sizes: sizesOf(s.nodeLookup, key) };
    kept.current = now;
    return now.sizes;
  });
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
      const pane = { width, height };
      const to = panToShow(rects, { x, y, zoom }, pane, CONTROLS_BAND, MINIMAP_CORNER);
      if (to) void setViewport(to, { duration: panDuration({ x, y, zoom }, to, pane) });
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

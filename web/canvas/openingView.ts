import type { Rect } from '../designer/edgeGeometry.ts';

/**
 * The lowest zoom a flow opens at: node titles are 14 px on the canvas (nodes.css), so 12.6 px on
 * screen, and badges and edge labels (12.5 px) 11.25 px. A designer may zoom out further.
 */
export const READABLE_ZOOM = 0.9;
/** A new or small flow opens at its natural size, never magnified. */
export const OPENING_MAX_ZOOM = 1;
const PADDING = 32;
/** Flows with more nodes than this draw only what is in view (so only that is ever measured). */
export const VIRTUALIZE_ABOVE = 150;

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/**
 * Where a flow opens: fitted to the pane (less `reserveBottom`, the band the minimap and zoom
 * controls sit in, so they cover no node), between READABLE_ZOOM and OPENING_MAX_ZOOM. A flow too
 * large to fit at READABLE_ZOOM opens at that zoom with its start at the left, centred on it
 * vertically unless the whole flow's height fits; the minimap shows the rest.
 */
export function openingViewport(
  nodes: readonly Rect[],
  start: Rect | undefined,
  pane: { width: number; height: number },
  reserveBottom: number,
): Viewport {
  if (nodes.length === 0) return { x: pane.width / 2, y: pane.height / 3, zoom: OPENING_MAX_ZOOM };
  const left = Math.min(...nodes.map((n) => n.x));
  const top = Math.min(...nodes.map((n) => n.y));
  const right = Math.max(...nodes.map((n) => n.x + n.width));
  const bottom = Math.max(...nodes.map((n) => n.y + n.height));
  const width = right - left;
  const height = bottom - top;
  const availWidth = Math.max(1, pane.width - 2 * PADDING);
  const availHeight = Math.max(1, pane.height - reserveBottom - 2 * PADDING);
  const fit = Math.min(OPENING_MAX_ZOOM, availWidth / width, availHeight / height);
  if (fit >= READABLE_ZOOM) {
    return {
      zoom: fit,
      x: PADDING + (availWidth - width * fit) / 2 - left * fit,
      y: PADDING + (availHeight - height * fit) / 2 - top * fit,
    };
  }
  const zoom = READABLE_ZOOM;
  const anchor = start ?? { x: left, y: top, width: 0, height };
  const tallFits = height * zoom <= availHeight;
  return {
    zoom,
    x: PADDING - anchor.x * zoom,
    y: tallFits
      ? PADDING + (availHeight - height * zoom) / 2 - top * zoom
      : PADDING + availHeight / 2 - (anchor.y + anchor.height / 2) * zoom,
  };
}

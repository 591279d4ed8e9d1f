import type { ReactFlowState } from '@xyflow/react';
import { NEW_NODE_SIZE } from '../designer/placement.ts';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The overview's picture of the nodes: their bounds, and every node's box as one SVG path. */
export interface NodeLayer {
  bounds: Box | undefined;
  path: string;
}

/**
 * A snapshot of the nodes' boxes (a node not measured yet, off screen in a large flow, takes a
 * new node's size). Hidden nodes are left out, as React Flow's MiniMap leaves them.
 */
export function nodeLayer(lookup: ReactFlowState['nodeLookup']): NodeLayer {
  const parts: string[] = [];
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const n of lookup.values()) {
    if (n.hidden) continue;
    const { x, y } = n.internals.positionAbsolute;
    const width = n.measured.width ?? n.width ?? NEW_NODE_SIZE.width;
    const height = n.measured.height ?? n.height ?? NEW_NODE_SIZE.height;
    parts.push(`M${round(x)},${round(y)}h${round(width)}v${round(height)}h${round(-width)}z`);
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x + width);
    y1 = Math.max(y1, y + height);
  }
  return {
    bounds: parts.length > 0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : undefined,
    path: parts.join(''),
  };
}

const round = (v: number) => Math.round(v * 10) / 10;

/**
 * The overview's view box: the nodes' bounds and the view together, fitted to the element's size
 * with a margin, as React Flow's MiniMap fits them. `scale` is flow units per element pixel.
 */
export function overviewBox(
  bounds: Box | undefined,
  view: Box,
  element: { width: number; height: number },
  offsetScale = 5,
): { x: number; y: number; w: number; h: number; offset: number; scale: number } {
  const all = bounds ? union(bounds, view) : view;
  const scale = Math.max(all.width / element.width, all.height / element.height);
  const w = scale * element.width;
  const h = scale * element.height;
  const offset = offsetScale * scale;
  return {
    x: all.x - (w - all.width) / 2 - offset,
    y: all.y - (h - all.height) / 2 - offset,
    w: w + offset * 2,
    h: h + offset * 2,
    offset,
    scale,
  };
}

function union(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

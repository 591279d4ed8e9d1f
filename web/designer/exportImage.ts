import { getNodesBounds, getViewportForBounds } from '@xyflow/react';
import type { CanvasNode } from './canvasTypes.ts';

const PADDING = 0.1;

/**
 * The whole flow as a PNG or SVG picture, for documents and reviews: the canvas's viewport drawn
 * at a scale that fits every node. html-to-image is loaded only when a picture is asked for.
 */
export async function flowPicture(
  kind: 'png' | 'svg',
  viewport: HTMLElement,
  nodes: readonly CanvasNode[],
): Promise<string> {
  const { toPng, toSvg } = await import('html-to-image');
  const bounds = getNodesBounds([...nodes]);
  const width = Math.max(400, Math.ceil(bounds.width * (1 + 2 * PADDING)));
  const height = Math.max(300, Math.ceil(bounds.height * (1 + 2 * PADDING)));
  const fit = getViewportForBounds(bounds, width, height, 0.2, 2, PADDING);
  const options = {
    width,
    height,
    backgroundColor: getComputedStyle(document.body).backgroundColor || '#ffffff',
    style: {
      width: `${width}px`,
      height: `${height}px`,
      transform: `translate(${fit.x}px, ${fit.y}px) scale(${fit.zoom})`,
    },
  };
  return kind === 'png' ? toPng(viewport, options) : toSvg(viewport, options);
}

/** Offers a data URL as a download. */
export function downloadDataUrl(fileName: string, dataUrl: string): void {
  const a = document.createElement('a');
  a.href = dataUrl;
  a.download = fileName;
  a.click();
}

import { describe, expect, it } from 'vitest';
import { openingViewport, OPENING_MAX_ZOOM, READABLE_ZOOM } from './openingView.ts';

const node = (x: number, y: number) => ({ x, y, width: 160, height: 80 });

describe('openingViewport', () => {
  it('fits a small flow without magnifying it: a new flow opens at zoom 1', () => {
    const v = openingViewport(
      [node(0, 0), node(200, 0)],
      node(0, 0),
      { width: 1000, height: 700 },
      120,
    );
    expect(v.zoom).toBe(OPENING_MAX_ZOOM);
  });

  it('never opens below the readable zoom: a wide flow opens with its start at the left', () => {
    const nodes = Array.from({ length: 12 }, (_, i) => node(i * 220, 0));
    const start = node(0, 0);
    const v = openingViewport(nodes, start, { width: 800, height: 700 }, 120);
    expect(v.zoom).toBe(READABLE_ZOOM);
    // The start's left edge lands on screen, at the padding.
    expect(start.x * v.zoom + v.x).toBeGreaterThan(0);
    expect(start.x * v.zoom + v.x).toBeLessThan(100);
  });

  it('fits between the two zooms, keeping every node above the band reserved at the bottom', () => {
    const nodes = [node(0, 0), node(900, 400)];
    const pane = { width: 1000, height: 700 };
    const v = openingViewport(nodes, nodes[0], pane, 150);
    expect(v.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    expect(v.zoom).toBeLessThan(1);
    const lowest = (400 + 80) * v.zoom + v.y;
    expect(lowest).toBeLessThanOrEqual(pane.height - 150);
  });
});

import { describe, expect, it } from 'vitest';
import { PAN_MS, panDuration, panToShow } from './positionInView.ts';

const node = (x: number, y: number) => ({ x, y, width: 160, height: 80 });
const pane = { width: 1000, height: 500 };

describe('panToShow: the canvas keeps a process position in view', () => {
  it('leaves the view alone when the position is in view already', () => {
    expect(panToShow([node(100, 100)], { x: 0, y: 0, zoom: 1 }, pane, 150)).toBeUndefined();
  });

  it('pans, at the same zoom, just far enough to bring a node beyond the right edge in', () => {
    const v = panToShow([node(1200, 100)], { x: 0, y: 0, zoom: 0.9 }, pane, 150)!;
    expect(v.zoom).toBe(0.9);
    expect(v.y).toBe(0);
    const right = (1200 + 160) * 0.9 + v.x;
    expect(right).toBeLessThanOrEqual(pane.width);
    expect(right).toBeGreaterThan(pane.width - 50);
  });

  it('keeps the position above the band of the minimap and controls when it fits there', () => {
    const v = panToShow([node(100, 400)], { x: 0, y: 0, zoom: 1 }, pane, 150)!;
    expect(400 + 80 + v.y).toBeLessThanOrEqual(pane.height - 150);
  });

  it('shows every node of a position that waits on two, from the top left if they do not fit', () => {
    const both = [node(-500, 0), node(2000, 0)];
    const v = panToShow(both, { x: 0, y: 0, zoom: 1 }, pane, 150)!;
    expect(-500 + v.x).toBeGreaterThan(0);
    const fits = panToShow([node(-500, 0), node(300, 0)], { x: 0, y: 0, zoom: 1 }, pane, 150)!;
    expect(-500 + fits.x).toBeGreaterThanOrEqual(0);
    expect(300 + 160 + fits.x).toBeLessThanOrEqual(pane.width);
  });

  it('keeps a position too tall for the space above the band left of the minimap, which it would reach down beside', () => {
    // 340 high in a 500 pane whose bottom 150 are the band: it cannot keep above it.
    const tall = { x: 800, y: 100, width: 160, height: 340 };
    const v = panToShow([tall], { x: 0, y: 0, zoom: 1 }, pane, 150, 180)!;
    expect(800 + 160 + v.x).toBeLessThanOrEqual(pane.width - 180);
    expect(100 + 340 + v.y).toBeLessThanOrEqual(pane.height);
    // One that fits above the band may stand over the minimap's columns: the band is below it.
    expect(panToShow([node(800, 100)], { x: 0, y: 0, zoom: 1 }, pane, 150, 180)).toBeUndefined();
  });
});

describe('panDuration: a pan to the position glides unless it goes further than the pane', () => {
  const from = { x: 0, y: 0, zoom: 0.9 };
  it('glides for a move within the pane', () => {
    expect(panDuration(from, { x: -600, y: 300, zoom: 0.9 }, pane)).toBe(PAN_MS);
  });
  it('jumps for a move of more than the pane, across or down', () => {
    expect(panDuration(from, { x: -1001, y: 0, zoom: 0.9 }, pane)).toBe(0);
    expect(panDuration(from, { x: 0, y: -12_000, zoom: 0.9 }, pane)).toBe(0);
  });
});

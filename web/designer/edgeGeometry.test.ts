import { describe, expect, it } from 'vitest';
import {
  FAN_SPACING,
  fanOffsets,
  forwardRoute,
  LOOP_CLEARANCE,
  loopRoute,
  pickLabelPlace,
} from './edgeGeometry.ts';

describe('edge geometry', () => {
  it('fans parallel edges between one pair apart, in either direction, a lone edge straight', () => {
    const offsets = fanOffsets([
      { id: 'e1', source: 'a', target: 'b' },
      { id: 'e2', source: 'b', target: 'a' },
      { id: 'e3', source: 'a', target: 'c' },
    ]);
    expect(offsets.get('e3')).toBe(0);
    expect(Math.abs(offsets.get('e1')! - offsets.get('e2')!)).toBe(FAN_SPACING);
  });

  it('moves the middle of a fanned edge by its offset', () => {
    const straight = forwardRoute({ x: 0, y: 0 }, { x: 200, y: 0 });
    const fanned = forwardRoute({ x: 0, y: 0 }, { x: 200, y: 0 }, 13);
    expect(fanned.labelAt[0]!.y - straight.labelAt[0]!.y).toBeCloseTo(13);
  });

  it('routes a closing edge below the lowest node it spans, nested ones lower still', () => {
    const route = loopRoute({ x: 500, y: 40 }, { x: 100, y: 40 }, 300);
    expect(route.labelAt[0]!.y).toBe(300 + LOOP_CLEARANCE);
    const ys = [...route.path.matchAll(/-?\d+(?:\.\d+)?,(-?\d+(?:\.\d+)?)/g)].map((m) => +m[1]!);
    expect(Math.max(...ys)).toBe(300 + LOOP_CLEARANCE);
    expect(loopRoute({ x: 500, y: 40 }, { x: 100, y: 40 }, 300, 2).labelAt[0]!.y).toBeGreaterThan(
      300 + LOOP_CLEARANCE,
    );
  });

  it('puts a label at the first place that covers no node', () => {
    const places = [
      { x: 100, y: 50 },
      { x: 300, y: 50 },
    ];
    const node = { x: 60, y: 20, width: 80, height: 60 };
    expect(pickLabelPlace(places, { width: 40, height: 20 }, [node])).toBe(1);
    expect(pickLabelPlace(places, { width: 40, height: 20 }, [])).toBe(0);
  });
});

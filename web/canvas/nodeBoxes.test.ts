import { describe, expect, it } from 'vitest';
import { nodeBoxes, sameAnswers, type NodeRect } from './nodeBoxes.ts';

const box = (id: string, x: number, y: number, width = 170, height = 90): NodeRect => ({
  id,
  x,
  y,
  width,
  height,
});
const row = (n: number) => Array.from({ length: n }, (_, i) => box(`n${i}`, i * 240, 0));

describe('nodeBoxes: what changed since the boxes before', () => {
  it('keeps the object of a box that is as it was, and lists a moved one before and after', () => {
    const first = nodeBoxes(row(5));
    const moved = row(5).map((r) => (r.id === 'n2' ? { ...r, height: 140 } : r));
    const next = nodeBoxes(moved, first);
    expect(next.byId.get('n0')).toBe(first.byId.get('n0'));
    expect(next.byId.get('n2')).not.toBe(first.byId.get('n2'));
    expect(next.changed).toEqual([first.byId.get('n2'), next.byId.get('n2')]);
    expect(next.prev).toBe(first);
  });

  it('lists an added and a removed box', () => {
    const first = nodeBoxes(row(3));
    const next = nodeBoxes([...row(3).filter((r) => r.id !== 'n1'), box('x', 900, 0)], first);
    expect(next.changed).toHaveLength(2);
    expect(next.changed).toContain(first.byId.get('n1'));
    expect(next.changed).toContain(next.byId.get('x'));
  });

  it('forgets the boxes before when too many changed at once (a new layout)', () => {
    const first = nodeBoxes(row(400));
    const next = nodeBoxes(
      row(400).map((r) => ({ ...r, y: 50 })),
      first,
    );
    expect(next.changed).toBeUndefined();
    expect(next.prev).toBeUndefined();
  });
});

describe('sameAnswers: a question about the boxes is answered as before', () => {
  const first = nodeBoxes(row(10));
  const asked = [{ box: { x: 0, y: -20, width: 500, height: 130 } }];

  it('holds when what changed is far from every box asked about', () => {
    const next = nodeBoxes(
      row(10).map((r) => (r.id === 'n8' ? { ...r, height: 200 } : r)),
      first,
    );
    expect(sameAnswers(asked, first, next)).toBe(true);
  });

  it('fails when a box changed inside one asked about, before or after its change', () => {
    const grown = nodeBoxes(
      row(10).map((r) => (r.id === 'n1' ? { ...r, height: 200 } : r)),
      first,
    );
    expect(sameAnswers(asked, first, grown)).toBe(false);
    // Moved away from the box asked about: where it was still counts.
    const away = nodeBoxes(
      row(10).map((r) => (r.id === 'n1' ? { ...r, y: 2000 } : r)),
      first,
    );
    expect(sameAnswers(asked, first, away)).toBe(false);
  });

  it('looks through every generation since, and fails past those remembered', () => {
    let at = first;
    for (let i = 0; i < 3; i++)
      at = nodeBoxes(
        row(10).map((r) => (r.id === 'n9' ? { ...r, height: 90 + i + 1 } : r)),
        at,
      );
    expect(sameAnswers(asked, first, at)).toBe(true);
    const near = nodeBoxes(
      row(10).map((r) => (r.id === 'n0' ? { ...r, width: 10 } : r)),
      at,
    );
    expect(sameAnswers(asked, first, near)).toBe(false);
    let long = first;
    for (let i = 0; i < 40; i++)
      long = nodeBoxes(
        row(10).map((r) => (r.id === 'n9' ? { ...r, height: 100 + i } : r)),
        long,
      );
    expect(sameAnswers(asked, first, long)).toBe(false);
  });

  it('a question answered "too many" holds while every box it found is still there as it was', () => {
    const found = [first.byId.get('n0')!, first.byId.get('n1')!];
    const crowded = [{ box: { x: 0, y: 0, width: 5000, height: 100 }, crowd: found }];
    const elsewhere = nodeBoxes(
      row(10).map((r) => (r.id === 'n5' ? { ...r, height: 10 } : r)),
      first,
    );
    expect(sameAnswers(crowded, first, elsewhere)).toBe(true);
    const oneFound = nodeBoxes(
      row(10).map((r) => (r.id === 'n1' ? { ...r, height: 10 } : r)),
      first,
    );
    expect(sameAnswers(crowded, first, oneFound)).toBe(false);
  });
});

describe('sameAnswers: boxes a question leaves out', () => {
  it("does not count a change of a box the questions ignore (an edge's own ends)", () => {
    const first = nodeBoxes(row(10));
    const asked = [{ box: { x: 0, y: -20, width: 500, height: 130 } }];
    const next = nodeBoxes(
      row(10).map((r) => (r.id === 'n1' ? { ...r, height: 200 } : r)),
      first,
    );
    expect(sameAnswers(asked, first, next, (r) => r.id === 'n1')).toBe(true);
    expect(sameAnswers(asked, first, next)).toBe(false);
  });
});

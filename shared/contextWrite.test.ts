import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyWrites, applyWritesOwned, toJsonValue, type ContextWrite } from './contextWrite.ts';

/**
 * `applyWritesOwned` is `applyWrites` for a run of writes in a row: it may change in place only
 * the objects it made itself in that run. Checked against `applyWrites` on random documents and
 * writes, with every document handed in frozen, so that a change in place to anything but its
 * own copies throws.
 */

const key = fc.constantFrom('a', 'b', 'c', 'd');
const path = fc.array(key, { minLength: 1, maxLength: 3 }).map((keys) => keys.join('.'));
const leaf = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 3 }));
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const write: fc.Arbitrary<ContextWrite> = fc.oneof(
  fc.record({ path, value: json }),
  // A write without a value removes the path.
  fc.record({ path }),
);
const batches = fc.array(fc.array(write, { maxLength: 4 }), { maxLength: 8 });

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('rule: writes applied in place to a run’s own copies give what applyWrites gives', () => {
  it('for random documents and runs of writes, each batch’s result equals applyWrites’, and nothing handed in changes', () => {
    fc.assert(
      fc.property(json, batches, (doc, runs) => {
        const before = structuredClone(doc);
        deepFreeze(doc);
        const owned = new WeakSet<object>();
        let slow: unknown = doc;
        let fast: unknown = doc;
        for (const batch of runs) {
          // Values written are the caller's; a run never owns them, so they are frozen too.
          for (const w of batch) deepFreeze(w.value);
          slow = applyWrites(slow, batch);
          fast = applyWritesOwned(fast, batch, owned);
          expect(fast).toEqual(slow);
        }
        expect(doc).toEqual(before);
      }),
      { numRuns: 500 },
    );
  });

  it('a second write through the same object changes the run’s copy, not the document given', () => {
    const doc = deepFreeze({ order: { total: 1, lines: 2 }, other: { x: 1 } });
    const owned = new WeakSet<object>();
    const first = applyWritesOwned(doc, [{ path: 'order.total', value: 5 }], owned) as typeof doc;
    const second = applyWritesOwned(first, [{ path: 'order.lines', value: 7 }], owned);
    // The copy made by the first write is the one the second changed.
    expect(second).toBe(first);
    expect(second).toEqual({ order: { total: 5, lines: 7 }, other: { x: 1 } });
    // What no write went through is shared, not copied.
    expect((second as typeof doc).other).toBe(doc.other);
    expect(doc).toEqual({ order: { total: 1, lines: 2 }, other: { x: 1 } });
  });

  it('without an owned set every write copies, as applyWrites does', () => {
    const doc = { a: 1 };
    const once = applyWritesOwned(doc, [{ path: 'b', value: 2 }], undefined);
    const twice = applyWritesOwned(once, [{ path: 'c', value: 3 }], undefined);
    expect(twice).not.toBe(once);
    expect(once).toEqual({ a: 1, b: 2 });
  });
});

describe('toJsonValue of a function', () => {
  it('reports a jsonata lambda (an object holding its circular environment) instead of throwing', async () => {
    const { default: jsonata } = await import('jsonata');
    const lambda: unknown = await jsonata('function($x) { $x }').evaluate({});
    expect(toJsonValue({ f: lambda })).toEqual({
      ok: false,
      error: 'yields a function, which a context cannot hold',
    });
  });
});

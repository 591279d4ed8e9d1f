import { describe, expect, it } from 'vitest';
import type { FlowNode } from '../../../../shared/schema.ts';
import { completeExpression } from './completeExpression.ts';
import { contextPathsOf } from '../../../designer/contextPaths.ts';

const paths = ['count', 'order', 'order.lines', 'order.total'];
const labels = (text: string, pos = text.length, explicit = false) =>
  completeExpression(text, pos, paths, explicit)?.options.map((o) => o.label);

describe('completion of an expression', () => {
  it('offers the context paths that continue the name typed, and replaces from its start', () => {
    expect(labels('order.t')).toEqual(['order.total']);
    expect(completeExpression('1 + order.t', 11, paths)?.from).toBe(4);
    expect(labels('ord')).toEqual(['order', 'order.lines', 'order.total']);
  });

  it('offers JSONata functions after a $, with their signatures', () => {
    const found = completeExpression('$su', 3, paths);
    expect(found?.from).toBe(0);
    // In the order of JSONata's docs, which jsonataFunctions.ts keeps; the editor ranks them.
    expect(found?.options.map((o) => o.label)).toEqual([
      '$substring',
      '$substringBefore',
      '$substringAfter',
      '$sum',
    ]);
    expect(found?.options[3]).toMatchObject({ type: 'function', detail: '(array)' });
    expect(labels('$')).toContain('$count');
  });

  it('completes at the cursor, not at the end of the text', () => {
    expect(labels('cou + 1', 3)).toEqual(['count']);
  });

  it('offers nothing inside a string, after a name it cannot follow, or for a name no path has', () => {
    expect(labels('"ord')).toBeUndefined();
    expect(labels("'a\\' ord")).toBeUndefined();
    expect(labels('$x.ord')).toBeUndefined();
    expect(labels('zzz')).toBeUndefined();
    expect(labels('$nope')).toBeUndefined();
  });

  it('offers everything on an explicit request where nothing is typed, and nothing unasked', () => {
    expect(labels('1 + ', 4)).toBeUndefined();
    const all = labels('1 + ', 4, true)!;
    expect(all.slice(0, 4)).toEqual(paths);
    expect(all).toContain('$sum');
  });

  it('does not offer the path already typed in full', () => {
    expect(labels('count')).toBeUndefined();
  });
});

describe('context paths seen in a flow', () => {
  it('are the paths work nodes set and triggers write into, with their prefixes, sorted', () => {
    const nodes: FlowNode[] = [
      { id: 'start', kind: 'start' },
      { id: 'work1', kind: 'work', set: { 'order.total': '1', count: 'count + 1' } },
      {
        id: 'wait1',
        kind: 'continue-after',
        on: [
          { id: 'paid', event: 'paid', into: 'payment.receipt' },
          { id: 'late', timer: 'PT1H' },
        ],
      },
    ];
    expect(contextPathsOf(nodes)).toEqual([
      'count',
      'order',
      'order.total',
      'payment',
      'payment.receipt',
    ]);
  });
});

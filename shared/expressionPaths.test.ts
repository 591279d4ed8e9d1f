import { describe, expect, it } from 'vitest';
import { contextPathsRead, MAX_PATHS_READ } from './expressionPaths.ts';

describe('the context paths an expression reads, found without running it', () => {
  it('reads the dotted names a path starts with, in the order first met, once each', () => {
    expect(contextPathsRead('prices.read + 1')).toEqual(['prices.read']);
    expect(contextPathsRead('count')).toEqual(['count']);
    expect(contextPathsRead('a.b + c + a.b')).toEqual(['a.b', 'c']);
    expect(contextPathsRead("'Bearer ' & order.id & `my key`.z")).toEqual(['order.id', 'my key.z']);
  });

  it('looks into function arguments, object constructors and conditions', () => {
    expect(contextPathsRead('$count(prices.history) + 1')).toEqual(['prices.history']);
    expect(contextPathsRead("{ 'amount': order.total, 'to': customer.email }")).toEqual([
      'order.total',
      'customer.email',
    ]);
    expect(contextPathsRead('approved ? total : limit')).toEqual(['approved', 'total', 'limit']);
  });

  it('stops a path at a filter or a block: what follows is relative to each item', () => {
    expect(contextPathsRead('items[price > 5].name')).toEqual(['items']);
    expect(contextPathsRead('items.(price * qty)')).toEqual(['items']);
    expect(contextPathsRead('a.b[0].c')).toEqual(['a.b']);
  });

  it('reads from the root ($$ or $) but not from a variable', () => {
    expect(contextPathsRead('$$.a.b')).toEqual(['a.b']);
    expect(contextPathsRead('$x.a')).toEqual([]);
    expect(contextPathsRead('$count(items).x')).toEqual(['items']);
    expect(contextPathsRead("$now() & 'x'")).toEqual([]);
  });

  it('reads nothing of an expression that does not parse', () => {
    expect(contextPathsRead('a +')).toEqual([]);
    expect(contextPathsRead('')).toEqual([]);
  });

  it('names at most MAX_PATHS_READ paths of a huge expression', () => {
    const text = Array.from({ length: MAX_PATHS_READ * 2 }, (_, i) => `k${i}`).join(' + ');
    const paths = contextPathsRead(text);
    expect(paths).toHaveLength(MAX_PATHS_READ);
    expect(paths[0]).toBe('k0');
  });
});

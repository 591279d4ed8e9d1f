import { describe, expect, it } from 'vitest';
import { errorSpan, expressionProblem, expressionProblemAt } from './expressionSyntax.ts';

const marked = (text: string) => {
  const p = expressionProblemAt(text);
  return p && text.slice(p.from, p.to);
};

describe('where an expression’s problem is, for the editor to mark', () => {
  it('marks the token the parser stopped on', () => {
    expect(marked('a ) b')).toBe(')');
    expect(marked('foo bar')).toBe('bar');
    expect(marked('a..b')).toBe('..');
    expect(marked('1 + + 2')).toBe('+');
    expect(expressionProblemAt('1 + + 2')).toMatchObject({ from: 4, to: 5 });
  });

  it('marks a point at the end when the expression ends too soon', () => {
    expect(expressionProblemAt('count +')).toMatchObject({ from: 7, to: 7 });
    expect(expressionProblemAt('$sum(x')).toMatchObject({ from: 6, to: 6 });
  });

  it('marks the character before the position when there is no token', () => {
    // An unterminated string: jsonata names no token.
    expect(expressionProblemAt('"abc')).toMatchObject({ from: 3, to: 4 });
  });

  it('marks the whole text for a problem of the whole', () => {
    expect(expressionProblemAt('$match(x, /(a)\\1/)')).toMatchObject({ from: 0, to: 18 });
    expect(expressionProblemAt('   ')).toMatchObject({ from: 0, to: 3 });
  });

  it('keeps the messages of the problems list', () => {
    expect(expressionProblemAt('count +')?.message).toBe(expressionProblem('count +'));
    expect(expressionProblem('count +')).toBe(
      'does not parse: Unexpected end of expression, at character 7',
    );
    expect(expressionProblemAt('count + 1')).toBeUndefined();
  });

  it('keeps a span inside the text whatever position the parser reports', () => {
    expect(errorSpan('ab', 99, 'zz')).toEqual({ from: 1, to: 2 });
    expect(errorSpan('ab', -5, undefined)).toEqual({ from: 0, to: 0 });
    expect(errorSpan('ab', 1, 'not there')).toEqual({ from: 0, to: 1 });
  });
});

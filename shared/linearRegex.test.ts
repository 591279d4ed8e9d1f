import fc from 'fast-check';
import jsonata from 'jsonata';
import { describe, expect, it } from 'vitest';
import { expressionProblem } from './expressionSyntax.ts';
import { LinearRegExp, regexProblem } from './linearRegex.ts';

const linear = { RegexEngine: LinearRegExp as unknown as RegExpConstructor };

/** Evaluates with the platform's backtracking RegExp and with the linear matcher. */
async function both(expression: string) {
  const native = await jsonata(expression).evaluate({});
  const mine = await jsonata(expression, linear).evaluate({});
  return { native: JSON.stringify(native), mine: JSON.stringify(mine) };
}

describe('regular expressions are matched in linear time (LinearRegExp)', () => {
  it.each([
    '$match("ab12cd345", /[0-9]+/)',
    '$match("abc", /(a)(z)?(c)?/)',
    '$match("ab\\ncd", /^cd$/m)',
    '$match("é€😀x😀", /😀/)',
    '$replace("Hello World", /o/i, "0")',
    '$replace("aaa", /a*/, "-")',
    '$replace("2024-01-31", /(\\d+)-(\\d+)-(\\d+)/, "$3/$2/$1")',
    '$split("a1b22c333", /[0-9]+/)',
    '$contains("ABC", /b/i)',
    '$contains("ABC", /^b/)',
    '$match("x-y-z", /-/, 1)',
  ])('answers %s as the platform RegExp does', async (expression) => {
    const { native, mine } = await both(expression);
    expect(mine).toBe(native);
  });

  it('agrees with the platform RegExp on random words and simple patterns', async () => {
    const word = fc.stringMatching(/^[ab\n-]{0,12}$/);
    const pattern = fc.constantFrom('a+', 'b*a', '(a|b)b', '^a', 'a$', '[^a]+', '-(a)?');
    await fc.assert(
      fc.asyncProperty(word, pattern, fc.boolean(), async (text, source, insensitive) => {
        const flags = insensitive ? 'i' : '';
        const expression = `$match(${JSON.stringify(text)}, /${source}/${flags})`;
        const { native, mine } = await both(expression);
        expect(mine).toBe(native);
      }),
      { numRuns: 200 },
    );
  });

  it('answers a catastrophic pattern at once instead of backtracking for minutes', async () => {
    // Backtracking takes 2^40 steps here, longer than the test's timeout by far.
    const expression = `$match("${'a'.repeat(40)}!", /^(a+)+$/)`;
    expect(await jsonata(expression, linear).evaluate({})).toBeUndefined();
    const whole = `$match("${'a'.repeat(40)}", /^(a+)+$/).match`;
    expect(await jsonata(whole, linear).evaluate({})).toBe('a'.repeat(40));
  });

  it('matches a megabyte of text', async () => {
    const text = 'ab'.repeat(500_000);
    const count = await jsonata('$count($match(t, /b/))', linear).evaluate({
      t: text.slice(0, 2000),
    });
    expect(count).toBe(1000);
    expect(new LinearRegExp(/b$/g).exec(text)?.index).toBe(text.length - 1);
  });

  it('refuses backreferences and lookarounds, naming the pattern and why', async () => {
    expect(regexProblem(/(a)\1/)).toMatch(/\/\(a\)\\1\/ cannot be used: .*backreferences/);
    expect(regexProblem(/x(?=y)/)).toMatch(/\/x\(\?=y\)\/ cannot be used/);
    expect(regexProblem(/a+b/)).toBeUndefined();
    await expect(jsonata('$match("xy", /x(?=y)/)', linear).evaluate({})).rejects.toThrow(
      /lookarounds/,
    );
  });

  it('names an unsupported pattern while the designer types the expression', () => {
    expect(expressionProblem('$match(name, /(?<!a)b/)')).toMatch(/cannot be used/);
    expect(expressionProblem('$replace(name, /(\\w+)\\s\\1/, "x")')).toMatch(/backreferences/);
    expect(expressionProblem('$match(name, /^[a-z]+$/i)')).toBeUndefined();
  });
});

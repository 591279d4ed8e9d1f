import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_VALUE_CHARS } from '../../shared/contextWrite.ts';
import { evaluateNow, jsonataOf, type Evaluation } from './evaluate.ts';
import { explainEvaluationError } from './guardrails.ts';

/**
 * The shortcut (fastPath.ts) answers an expression only when it gives what jsonata gives under
 * the runtime's options (guardrails.ts): same value, or both fail. Expressions are generated from
 * the shortcut's own grammar (literals, paths, `(…)`, unary minus, the binary operators, `c ? a :
 * b`, `$exists(path)`), contexts from awkward values: -0, numbers whose arithmetic overflows to
 * Infinity, unicode strings, prototype keys, missing paths, arrays where scalars are expected, a
 * string half the value limit long.
 */

/** Keys of contexts and steps of paths; several name what every object inherits. */
const KEYS = ['a', 'b', 'n', '__proto__', 'constructor', 'prototype', 'toString', 'é', '日本'];

/** A path step as JSONata text: backquoted, so that any key is one name. */
const step = (key: string) => `\`${key}\``;

/** Half the value limit and one more: two of them joined are too long for a value. */
const LONG = 'x'.repeat(MAX_VALUE_CHARS / 2 + 1);

const awkwardNumber = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 10, 0.1, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE),
  fc.constantFrom(2 ** 53, 2 ** 53 + 2, 1e21, 5e-324),
  fc.integer({ min: -1000, max: 1000 }),
  // NaN and Infinity are not JSON: no context holds them, nor can a literal write them.
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const awkwardString = fc.oneof(
  fc.constantFrom('', 'a', 'A', 'é', 'e\u0301', '\u{1F600}', '\uD800', 'ß', 'SS', '日本', LONG),
  fc.string({ maxLength: 6, unit: 'binary' }),
);

const scalar = fc.oneof(awkwardNumber, awkwardString, fc.boolean(), fc.constant(null));

/** Objects with own properties of any of KEYS (`__proto__` too, as JSON.parse makes it). */
const nested: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown; object: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    tie('object'),
    fc.array(fc.oneof(scalar, tie('object')), { maxLength: 3 }),
  ),
  object: fc
    .array(fc.tuple(fc.constantFrom(...KEYS), tie('value')), { maxLength: 5 })
    .map((entries) => Object.fromEntries(entries)),
})).object;

/**
 * A flat object holding every key, each one of a few awkward scalars, so that paths arrive and the
 * operators meet -0, 1e308, decomposed and composed accents, and LONG beside LONG.
 */
const flat: fc.Arbitrary<unknown> = fc
  .tuple(
    ...KEYS.map(() =>
      fc.constantFrom(-0, 0, 1, 1e308, -1e308, 'é', 'e\u0301', 'ß', LONG, LONG, LONG, true, null),
    ),
  )
  .map((values) => Object.fromEntries(KEYS.map((k, i) => [k, values[i]])));

const context = fc.oneof(nested, flat);

/** A number as a JSONata literal: -0 keeps its sign (String(-0) is "0"). */
const numberText = (n: number) => (Object.is(n, -0) ? '-0' : String(n));

const key = fc.constantFrom(...KEYS).map(step);
const path = fc.oneof(
  { arbitrary: key, weight: 3 },
  fc.array(key, { minLength: 2, maxLength: 3 }).map((keys) => keys.join('.')),
);

const OPERATORS = ['+', '-', '*', '/', '%', '<', '<=', '>', '>=', '=', '!=', 'and', 'or', '&'];

const expression: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  // Paths weigh most, so that operators mostly meet the context's values.
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: path, weight: 6 },
    { arbitrary: awkwardNumber.map(numberText), weight: 2 },
    { arbitrary: awkwardString.filter((s) => s !== LONG).map((s) => JSON.stringify(s)), weight: 1 },
    { arbitrary: fc.constantFrom('true', 'false', 'null'), weight: 1 },
    { arbitrary: path.map((p) => `$exists(${p})`), weight: 1 },
    { arbitrary: tie('expr').map((e) => `(${e})`), weight: 1 },
    { arbitrary: tie('expr').map((e) => `-${e}`), weight: 1 },
    {
      arbitrary: fc
        .tuple(tie('expr'), fc.constantFrom(...OPERATORS), tie('expr'))
        .map(([l, op, r]) => `${l} ${op} ${r}`),
      weight: 4,
    },
    // Joins of two fields: strings that meet the value limit only together.
    { arbitrary: fc.tuple(key, key).map(([l, r]) => `${l} & ${r}`), weight: 2 },
    {
      arbitrary: fc
        .tuple(tie('expr'), tie('expr'), tie('expr'))
        .map(([c, t, e]) => `${c} ? ${t} : ${e}`),
      weight: 1,
    },
  ),
})).expr;

/** What the runtime's jsonata path gives (evaluate.ts, without the shortcut). */
async function byJsonata(text: string, input: unknown): Promise<Evaluation> {
  try {
    return { ok: true, value: (await jsonataOf(text).evaluate(input, {})) as unknown };
  } catch (e) {
    return { ok: false, error: explainEvaluationError(e) };
  }
}

/** Equal as a result: Object.is for numbers, so that -0 is not 0. */
function same(a: Evaluation, b: Evaluation): boolean {
  if (!a.ok || !b.ok) return a.ok === b.ok && (a.ok || a.error === (b as typeof a).error);
  return typeof a.value === 'number' ? Object.is(a.value, b.value) : a.value === b.value;
}

/** JSON with long strings cut short, for a failure's message. */
const shown = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) =>
    typeof x === 'string' && x.length > 40 ? `<${x.length} characters>` : x,
  );

const describeCase = (text: string, input: unknown, fast: Evaluation, slow: Evaluation) =>
  `${text} on ${shown(input)}: shortcut ${shown(fast)}, jsonata ${shown(slow)}`;

describe('the shortcut beside jsonata, on generated expressions and contexts', () => {
  it('whenever it answers, gives what jsonata gives (value, or failure)', async () => {
    const owner = {};
    await fc.assert(
      fc.asyncProperty(expression, context, async (text, input) => {
        const fast = evaluateNow(owner, text, input);
        if (!fast) return; // jsonata decides, so nothing can differ
        const slow = await byJsonata(text, input);
        expect(same(fast, slow), describeCase(text, input, fast, slow)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('answers a good share of them, or the property above proves nothing', () => {
    const owner = {};
    const cases = fc.sample(fc.tuple(expression, context), { numRuns: 1000, seed: 27 });
    const answered = cases.filter(([text, input]) => evaluateNow(owner, text, input)?.ok).length;
    expect(answered).toBeGreaterThan(150);
  });

  it('leaves to jsonata what it found to differ: a join past the value limit', async () => {
    const owner = {};
    // jsonata's guardrail fails a string built over the limit; the shortcut must not build it.
    expect(evaluateNow(owner, 's & s', { s: LONG })).toBeUndefined();
    expect(await byJsonata('s & s', { s: LONG })).toMatchObject({ ok: false });
    expect(evaluateNow(owner, 's & "!"', { s: 'a' })).toEqual({ ok: true, value: 'a!' });
  });
});

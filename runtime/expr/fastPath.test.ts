import jsonata from 'jsonata';
import { describe, expect, it } from 'vitest';
import {
  checkExtraFunctions,
  conditionNow,
  evaluate,
  evaluateCondition,
  evaluateNow,
} from './evaluate.ts';
import { EXPRESSION_OPTIONS } from './guardrails.ts';
import { compileShortcut, UNSURE } from './fastPath.ts';

const EXPRESSIONS = [
  'count + 1',
  'count - 2 * n',
  'count / n',
  'count % 3',
  '-count',
  '(count + 1)',
  'count < 1000',
  'count >= n',
  'name < "m"',
  'name = "ann"',
  'name != "ann"',
  'count = n',
  'flag and count > 1',
  'flag or missing',
  'not_a_flag and flag',
  'order.total > 10',
  'order.status = "paid" and flag',
  'name & "!"',
  'name & count',
  'count + name',
  'count < name',
  'missing + 1',
  'missing = 1',
  'list + 1',
  'order.items',
  'order',
  'true',
  'null',
  '"text"',
  '1.5e3',
  'count / zero',
  'count % zero',
  'nested.a.b.c',
  'constructor',
  'toString = 1',
  '$exists(count)',
  '$exists(missing)',
  '$exists(order.total)',
  '$exists(order.missing)',
  '$exists(order.items)',
  '$exists(nested.a.b.c)',
  '$exists(nested.a.b)',
  '$exists(list)',
  '$exists(constructor)',
  '$exists(n) ? n + 1 : 1',
  '$exists(missing) ? missing + 1 : 1',
  'count > 0 ? "up" : "down"',
  'flag ? count : name',
  'not_a_flag ? 1 : 2',
  'flag ? 1',
  'missing ? 1 : 2',
  '$exists(count, 1)',
];

const INPUTS: unknown[] = [
  {
    count: 1,
    n: 3,
    name: 'ann',
    flag: true,
    not_a_flag: 0,
    zero: 0,
    order: { total: 12, status: 'paid', items: [1, 2] },
    list: [1, 2],
    nested: { a: { b: { c: null } } },
  },
  {
    count: -7.5,
    n: 0,
    name: 'zed',
    flag: false,
    not_a_flag: 'yes',
    zero: 0,
    order: { total: 'x' },
    list: 4,
    nested: { a: [{ b: { c: 1 } }] },
  },
  { count: '5', n: null, name: 3, flag: 'true' },
  [{ count: 1 }, { count: 2 }],
  {},
  null,
];

async function viaJsonata(text: string, input: unknown) {
  try {
    return {
      ok: true,
      value: (await jsonata(text, EXPRESSION_OPTIONS).evaluate(input)) as unknown,
    };
  } catch (e) {
    return { ok: false, code: (e as { code?: string }).code };
  }
}

describe('the expression shortcut', () => {
  it('gives what jsonata gives whenever it answers, and leaves the rest to jsonata', async () => {
    let answered = 0;
    for (const text of EXPRESSIONS) {
      const shortcut = compileShortcut(jsonata(text).ast());
      for (const input of INPUTS) {
        const expected = await viaJsonata(text, input);
        // The public entry always agrees with jsonata, shortcut or not.
        const got = await evaluate({}, text, input);
        expect(got.ok, `${text} on ${JSON.stringify(input)}`).toBe(expected.ok);
        if (expected.ok && got.ok) expect(got.value).toEqual(expected.value);
        const fast = shortcut?.(input) ?? UNSURE;
        if (fast === UNSURE) continue;
        answered++;
        expect(expected, `${text} on ${JSON.stringify(input)}`).toEqual({ ok: true, value: fast });
      }
    }
    // The shortcut does answer the common cases, or this test proves nothing.
    expect(answered).toBeGreaterThan(40);
  });

  it('refuses what it does not know: predicates, functions but $exists, variables, a lone then', () => {
    for (const text of [
      'list[0]',
      '$count(list)',
      '$exists(list[0])',
      '$exists(count, 1)',
      '$exists($x)',
      '$x',
      'flag ? 1',
      'flag ? $count(list) : 2',
      'a.*',
      '**.b',
      'a{"k": 1}',
    ])
      expect(compileShortcut(jsonata(text).ast()), text).toBeUndefined();
  });

  it("keeps $exists and the step's functions jsonata's: a test cannot bind the names", () => {
    expect(() => checkExtraFunctions({ exists: () => false })).toThrow(/\$exists cannot be bound/);
    expect(() => checkExtraFunctions({ now: () => 0 })).toThrow(/\$now cannot be bound/);
    expect(() => checkExtraFunctions({ block: () => 0 })).not.toThrow();
    expect(evaluateNow({}, '$exists(a) ? a : 0', { a: 2 })).toEqual({ ok: true, value: 2 });
  });

  it('answers at once only when it is sure', () => {
    const owner = {};
    expect(evaluateNow(owner, 'count + 1', { count: 1 })).toEqual({ ok: true, value: 2 });
    expect(evaluateNow(owner, 'count + 1', { count: 'x' })).toBeUndefined();
    expect(evaluateNow(owner, '$sum(list)', { list: [1] })).toBeUndefined();
    expect(evaluateNow(owner, 'count +', {})).toMatchObject({ ok: false });
    expect(conditionNow(owner, 'count < 2', { count: 1 })).toEqual({ ok: true, value: true });
    // Not a boolean: `$boolean` decides, which only the awaited path asks.
    expect(conditionNow(owner, 'count', { count: 1 })).toBeUndefined();
  });

  it('reads a condition that is not a boolean by $boolean rules', async () => {
    expect(await evaluateCondition({}, 'count', { count: 0 })).toEqual({ ok: true, value: false });
    expect(await evaluateCondition({}, 'name', { name: 'a' })).toEqual({ ok: true, value: true });
    expect(await evaluateCondition({}, 'flag', { flag: false })).toEqual({
      ok: true,
      value: false,
    });
  });
});

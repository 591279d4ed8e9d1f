import { afterEach, describe, expect, it } from 'vitest';
import { evaluate, evaluateNow } from './evaluate.ts';
import { EXPRESSION_LIMITS, setExpressionTimeout } from './guardrails.ts';

// A loop with no end whose recursion is a tail call: JSONata's depth limit never stops it, only
// its time limit does, whatever the machine's speed.
const ENDLESS = '($f := function($x){$f($x + 1)}; $f(1))';

afterEach(() => setExpressionTimeout());

describe("JSONata's time limit, a setting (runtime/expr/guardrails.ts)", () => {
  it('ships as one second', () => {
    expect(EXPRESSION_LIMITS.timeout).toBe(1000);
  });

  it('stops an endless loop at the limit a test sets, naming that limit', async () => {
    setExpressionTimeout(20);
    expect(await evaluate({}, ENDLESS, {})).toEqual({
      ok: false,
      error: 'ran for more than 0.02 seconds; is it an endless loop?',
    });
  });

  it('reaches an expression compiled before the limit was set', async () => {
    const owner = {};
    // Compiles it (cached for `owner`) without evaluating it: only jsonata can evaluate it.
    expect(evaluateNow(owner, ENDLESS, {})).toBeUndefined();
    setExpressionTimeout(10);
    expect(await evaluate(owner, ENDLESS, {})).toEqual({
      ok: false,
      error: 'ran for more than 0.01 seconds; is it an endless loop?',
    });
  });
});

import jsonata from 'jsonata';
import { EXPRESSION_OPTIONS, explainEvaluationError } from './guardrails.ts';

type Compiled = ReturnType<typeof jsonata>;

/**
 * Compiled expressions, cached per flow object so that a wake compiles nothing it compiled
 * before; a changed flow is a new object and gets a fresh cache.
 */
const cache = new WeakMap<object, Map<string, Compiled>>();

function compiled(owner: object, text: string): Compiled {
  let perFlow = cache.get(owner);
  if (!perFlow) cache.set(owner, (perFlow = new Map()));
  let expr = perFlow.get(text);
  if (!expr) {
    expr = jsonata(text, EXPRESSION_OPTIONS);
    perFlow.set(text, expr);
  }
  return expr;
}

export type Evaluation = { ok: true; value: unknown } | { ok: false; error: string };

/** Evaluates `text` against `input` within the guardrails; never throws. */
export async function evaluate(owner: object, text: string, input: unknown): Promise<Evaluation> {
  try {
    const value: unknown = await compiled(owner, text).evaluate(input);
    return { ok: true, value };
  } catch (e) {
    return { ok: false, error: explainEvaluationError(e) };
  }
}

const booleanOf = jsonata('$boolean($v)');

/** Evaluates a condition and reads it by JSONata's `$boolean` rules (FORMAT.md §1). */
export async function evaluateCondition(
  owner: object,
  text: string,
  input: unknown,
): Promise<{ ok: true; value: boolean } | { ok: false; error: string }> {
  const result = await evaluate(owner, text, input);
  if (!result.ok) return result;
  const value: unknown = await booleanOf.evaluate({}, { v: result.value });
  return { ok: true, value: value === true };
}

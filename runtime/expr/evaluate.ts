import jsonata from 'jsonata';
import { compileShortcut, SHORTCUT_FUNCTIONS, UNSURE, type Shortcut } from './fastPath.ts';
import {
  checkValueSize,
  EVALUATE_EXIT,
  EXPRESSION_OPTIONS,
  explainEvaluationError,
} from './guardrails.ts';
import { STEP_FUNCTIONS, stepBindings, type StepInputs } from './stepBindings.ts';
import { expressionAst } from '../../shared/expressionSyntax.ts';

type Compiled = ReturnType<typeof jsonata>;

interface Entry {
  /** Made when first evaluated by jsonata: an expression the shortcut answers never is. */
  expr: Compiled | undefined;
  /** The synchronous shortcut for a simple expression (fastPath.ts), if it is one. */
  shortcut: Shortcut | undefined;
}

/**
 * Compiled expressions, cached per flow object so that a wake compiles nothing it compiled
 * before; a changed flow is a new object and gets a fresh cache.
 */
const cache = new WeakMap<object, Map<string, Entry>>();

function compiled(owner: object, text: string): Entry {
  let perFlow = cache.get(owner);
  if (!perFlow) cache.set(owner, (perFlow = new Map()));
  let entry = perFlow.get(text);
  if (!entry) {
    // The shortcut is compiled from the tree the flow's validation parsed (expressionAst), so
    // that an expression is parsed once, not again for each reader. A text that does not parse
    // is given to jsonata now, which throws its own error.
    let ast: unknown;
    try {
      ast = expressionAst(text);
    } catch {
      entry = { expr: jsonataOf(text), shortcut: undefined };
    }
    entry ??= { expr: undefined, shortcut: compileShortcut(ast) };
    perFlow.set(text, entry);
  }
  return entry;
}

/**
 * Compiles `text` as every evaluation by jsonata runs it: within the guardrails (guardrails.ts).
 * Exported for the test that holds the shortcut to it (fastPath.property.test.ts).
 */
export function jsonataOf(text: string): Compiled {
  const expr = jsonata(text, EXPRESSION_OPTIONS);
  // jsonata binds by any key; its types name only strings.
  expr.assign(EVALUATE_EXIT as unknown as string, checkValueSize);
  return expr;
}

/**
 * Functions an evaluation may call besides JSONata's own, handed in with the step
 * (`StepInputs.functions`, from the engine's environment). The app binds none; the dev server's
 * runtime worker binds `$block` when an e2e test asks (web/runtime/testFunctions.ts).
 */
export type ExtraFunctions = Readonly<Record<string, (...args: never[]) => unknown>>;

/**
 * Refuses a binding of a name the shortcut evaluates itself as jsonata's own (fastPath.ts), or
 * one the step binds (stepBindings.ts): either would make a result depend on which path ran.
 */
export function checkExtraFunctions(functions: ExtraFunctions): void {
  for (const name of Object.keys(functions)) {
    if (SHORTCUT_FUNCTIONS.has(name) || STEP_FUNCTIONS.has(name))
      throw new Error(`$${name} cannot be bound: it is jsonata's`);
  }
}

export type Evaluation = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Evaluates `text` at once when the shortcut is sure of the result; undefined when only jsonata
 * can say, and then `evaluate` must be awaited. Never throws.
 */
export function evaluateNow(owner: object, text: string, input: unknown): Evaluation | undefined {
  let entry: Entry;
  try {
    entry = compiled(owner, text);
  } catch (e) {
    return { ok: false, error: explainEvaluationError(e) };
  }
  if (!entry.shortcut) return undefined;
  const value = entry.shortcut(input);
  return value === UNSURE ? undefined : { ok: true, value };
}

/**
 * Evaluates `text` against `input` within the guardrails; never throws. With `step`, `$now()`,
 * `$millis()`, `$random()` and `$shuffle()` are the step's (stepBindings.ts); without, jsonata's.
 */
export async function evaluate(
  owner: object,
  text: string,
  input: unknown,
  step?: StepInputs,
): Promise<Evaluation> {
  const now = evaluateNow(owner, text, input);
  if (now) return now;
  try {
    // The step's own functions win over an extra binding of the same name.
    const bindings = step ? { ...step.functions, ...(await stepBindings(step)) } : {};
    const entry = compiled(owner, text);
    const value: unknown = await (entry.expr ??= jsonataOf(text)).evaluate(input, bindings);
    return { ok: true, value };
  } catch (e) {
    return { ok: false, error: explainEvaluationError(e) };
  }
}

const booleanOf = jsonata('$boolean($v)');

export type Condition = { ok: true; value: boolean } | { ok: false; error: string };

/** A condition's result read by JSONata's `$boolean` rules (docs/format.md#flows); a boolean is itself. */
async function asCondition(result: Evaluation): Promise<Condition> {
  if (!result.ok) return result;
  if (typeof result.value === 'boolean') return { ok: true, value: result.value };
  const value: unknown = await booleanOf.evaluate({}, { v: result.value });
  return { ok: true, value: value === true };
}

/** `evaluateNow` for a condition: the answer at once when the shortcut gives a boolean. */
export function conditionNow(owner: object, text: string, input: unknown): Condition | undefined {
  const now = evaluateNow(owner, text, input);
  if (now && (!now.ok || typeof now.value === 'boolean')) return now as Condition;
  return undefined;
}

/** Evaluates a condition and reads it by JSONata's `$boolean` rules (docs/format.md#flows). */
export async function evaluateCondition(
  owner: object,
  text: string,
  input: unknown,
  step?: StepInputs,
): Promise<Condition> {
  return asCondition(await evaluate(owner, text, input, step));
}

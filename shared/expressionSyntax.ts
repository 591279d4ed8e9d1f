import jsonata from 'jsonata';
import { regexProblem } from './linearRegex.ts';

/** Longer expressions are refused: no designer writes one, and parsing must stay instant. */
export const MAX_EXPRESSION_LENGTH = 10_000;

/**
 * Why a JSONata expression does not parse, in words for the property panel and the problem list
 * (`does not parse: Expected ")" before end of expression, at character 4`); undefined when it
 * parses. Parsing only: evaluation, with its guardrails, belongs to the runtime.
 */
export function expressionProblem(text: string): string | undefined {
  // Live validation asks about the same expressions on every edit; parse each text once.
  if (checked.has(text)) return checked.get(text);
  const problem = findProblem(text);
  if (checked.size >= CACHE_LIMIT) checked.clear();
  checked.set(text, problem);
  return problem;
}

const CACHE_LIMIT = 10_000;
const checked = new Map<string, string | undefined>();

function findProblem(text: string): string | undefined {
  if (text.trim() === '') return 'is empty; write a JSONata expression such as `count + 1`';
  if (text.length > MAX_EXPRESSION_LENGTH) {
    return `is ${text.length} characters long; expressions up to ${MAX_EXPRESSION_LENGTH} are accepted`;
  }
  try {
    return regexProblemIn(jsonata(text).ast());
  } catch (e) {
    if (e instanceof RangeError) return 'does not parse: it is nested too deeply';
    const err = e as { message?: unknown; position?: unknown };
    const message = typeof err.message === 'string' ? err.message : 'syntax error';
    const at = typeof err.position === 'number' ? `, at character ${err.position}` : '';
    return `does not parse: ${message}${at}`;
  }
}

/**
 * The first regular expression literal of a parsed expression that the runtime's linear-time
 * matcher cannot take (a backreference, a lookaround), so the designer learns it while typing.
 */
function regexProblemIn(ast: unknown): string | undefined {
  // The tree's shape differs per node type; every object in it is visited, with a stack, since
  // the parser accepted the nesting it has.
  const stack: unknown[] = [ast];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (node instanceof RegExp) {
      const problem = regexProblem(node);
      if (problem) return problem;
      continue;
    }
    for (const value of Object.values(node)) stack.push(value);
  }
  return undefined;
}

import jsonata from 'jsonata';

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
    jsonata(text);
    return undefined;
  } catch (e) {
    if (e instanceof RangeError) return 'does not parse: it is nested too deeply';
    const err = e as { message?: unknown; position?: unknown };
    const message = typeof err.message === 'string' ? err.message : 'syntax error';
    const at = typeof err.position === 'number' ? `, at character ${err.position}` : '';
    return `does not parse: ${message}${at}`;
  }
}

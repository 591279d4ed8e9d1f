import { MAX_VALUE_CHARS } from '../../shared/contextWrite.ts';
import { describe } from '../../shared/parseFlowFile.ts';

/**
 * Checks on what comes in from outside a process (a first context, an event's payload, a
 * person's input, a context edit), made before anything is stored: a value a step would refuse
 * to write is refused where it is entered, with a message, rather than failing the process that
 * receives it and staying on its record for a retry.
 */

/** Why `value`, entered as `what`, is too large for a context; undefined when it fits. */
export function sizeProblem(what: string, value: unknown): string | undefined {
  const text = JSON.stringify(value);
  if (text === undefined || text.length <= MAX_VALUE_CHARS) return undefined;
  return `${what} is ${text.length.toLocaleString('en')} characters as JSON; at most ${MAX_VALUE_CHARS.toLocaleString('en')} fit in a context, so nothing was stored`;
}

/** Why `value` cannot be a process's first context; undefined when it can. */
export function firstContextProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `the first context must be a JSON object, got ${describe(value)}; nothing was stored`;
  }
  return sizeProblem('the first context', value);
}

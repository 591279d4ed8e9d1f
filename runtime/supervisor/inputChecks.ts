import { MAX_VALUE_CHARS } from '../../shared/contextWrite.ts';

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

/**
 * Why `value`, entered as `what`, cannot be a whole context; undefined when it can. A context is
 * a JSON object (docs/decisions.md): its paths (`order.total`) name keys of objects, and a number
 * or a list at the top could hold none. One check and one message for a first context and a
 * replaced one alike.
 */
export function contextProblem(what: string, value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return `a context is a JSON object, such as { "count": 0 }; got ${got}`;
  }
  return sizeProblem(what, value);
}

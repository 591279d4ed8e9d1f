import { RESERVED_KEYS } from './schema.ts';

/**
 * A context path (docs/format.md#flows): dot-separated keys into the context document, `order.total`.
 * Returns the keys, or a message saying why the text is not a usable path. Keys that could reach
 * a prototype are refused, so no write to the context can pollute an object.
 */
export function parseContextPath(text: string): { keys: string[] } | { problem: string } {
  if (text === '') return { problem: 'the path is empty' };
  const keys = text.split('.');
  if (keys.some((k) => k === '')) {
    return { problem: `"${text}" has an empty part; write keys separated by single dots` };
  }
  const reserved = keys.find((k) => RESERVED_KEYS.includes(k));
  if (reserved !== undefined) return { problem: `"${text}" uses the reserved key "${reserved}"` };
  return { keys };
}

/** The problem with a path, or undefined when it is usable. */
export function contextPathProblem(text: string): string | undefined {
  const parsed = parseContextPath(text);
  return 'problem' in parsed ? parsed.problem : undefined;
}

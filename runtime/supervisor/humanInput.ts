import type { Trigger } from '../../shared/schema.ts';
import { describe } from '../../shared/parseFlowFile.ts';

/**
 * Checks a human's input against the fields a trigger declares (docs/format.md#scenarios): an object with
 * every field, no other, each of its declared type. Returns the problem, or undefined.
 */
export function humanInputProblem(trigger: Trigger, input: unknown): string | undefined {
  const fields = trigger.human?.fields ?? [];
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return `the input must be an object with ${fields.map((f) => `"${f.name}"`).join(', ') || 'no fields'}, got ${describe(input)}`;
  }
  const record = input as Record<string, unknown>;
  for (const field of fields) {
    if (!Object.hasOwn(record, field.name))
      return `the input lacks the field "${field.name}" (${field.type})`;
    const value = record[field.name];
    const ok =
      field.type === 'number'
        ? typeof value === 'number' && Number.isFinite(value)
        : typeof value === field.type;
    if (!ok) return `the field "${field.name}" must be a ${field.type}, got ${describe(value)}`;
  }
  const extra = Object.keys(record).find((k) => !fields.some((f) => f.name === k));
  if (extra !== undefined)
    return `the input has a field "${extra}" that trigger "${trigger.id}" does not declare`;
  return undefined;
}

/** Why an answer to a wait that is over is refused (a double-click, a second tab, a stale form). */
export function answeredAlready(processId: string, nodePath: string): string {
  return `this form was already answered: process "${processId}" has moved on from the wait at "${nodePath}" it was shown for; nothing was changed`;
}

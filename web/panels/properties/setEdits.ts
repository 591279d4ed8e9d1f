import { freshId } from '../../designer/newIds.ts';
import { moveItem, removeAt } from './listEdits.ts';

/**
 * Edits of a work node's `set`, an object from context path to expression whose key order is
 * the order the expressions run in (docs/format.md#flows). Each edit keeps the order of the other rows.
 * JavaScript lists integer-like keys ("2") before all others, so such a path sorts first.
 */
export type Assignments = Readonly<Record<string, string>>;

const fromEntries = (entries: [string, string][]): Record<string, string> =>
  Object.fromEntries(entries);

/** The path at row `index`, or undefined. */
export const pathAt = (set: Assignments, index: number): string | undefined =>
  Object.keys(set)[index];

/** Why `path` cannot be the new path of row `index`: another row already sets it. */
export function renameProblem(set: Assignments, index: number, path: string): string | undefined {
  const other = Object.keys(set).findIndex((p, i) => p === path && i !== index);
  return other === -1 ? undefined : `assignment ${other + 1} already sets "${path}"`;
}

/** Renames row `index`'s path in place; refused (undefined) when another row has that path. */
export function renamePath(set: Assignments, index: number, path: string): Assignments | undefined {
  if (renameProblem(set, index, path) !== undefined) return undefined;
  return fromEntries(Object.entries(set).map(([p, e], i) => [i === index ? path : p, e]));
}

export function setExpression(set: Assignments, index: number, expression: string): Assignments {
  return fromEntries(Object.entries(set).map(([p, e], i) => [p, i === index ? expression : e]));
}

/** Adds a row at the end with a path no row has (`value1`, `value2`, …) and no expression yet. */
export function addAssignment(set: Assignments): Assignments {
  const path = freshId('value', new Set(Object.keys(set)));
  return fromEntries([...Object.entries(set), [path, '']]);
}

export function removeAssignment(set: Assignments, index: number): Assignments {
  return fromEntries(removeAt(Object.entries(set), index));
}

export function moveAssignment(set: Assignments, from: number, to: number): Assignments {
  return fromEntries(moveItem(Object.entries(set), from, to));
}

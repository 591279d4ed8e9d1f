/**
 * Undo and redo over immutable states. Each state is kept whole; the canvas's arrays share
 * every object that did not change, so a history of hundreds of edits stays small.
 */
export interface History<T> {
  past: T[];
  future: T[];
}

const LIMIT = 200;

export const emptyHistory = <T>(): History<T> => ({ past: [], future: [] });

/** Records `before` as the state to return to; a new edit clears what could be redone. */
export function record<T>(history: History<T>, before: T): History<T> {
  return { past: [...history.past.slice(-(LIMIT - 1)), before], future: [] };
}

export function undo<T>(
  history: History<T>,
  current: T,
): { history: History<T>; state: T } | undefined {
  const state = history.past.at(-1);
  if (state === undefined) return undefined;
  return {
    state,
    history: { past: history.past.slice(0, -1), future: [current, ...history.future] },
  };
}

export function redo<T>(
  history: History<T>,
  current: T,
): { history: History<T>; state: T } | undefined {
  const [state, ...future] = history.future;
  if (state === undefined) return undefined;
  return { state, history: { past: [...history.past, current], future } };
}

import { useEffect, useRef } from 'react';

/**
 * Moves focus after an edit that adds, removes or moves a row, once React has drawn the result,
 * so that a keyboard user stays where the work is. Targets are found in the container by their
 * `data-focus` name; the first one that exists and is enabled wins.
 */
export function useFocusAfter<E extends HTMLElement>() {
  const container = useRef<E>(null);
  const pending = useRef<string[] | undefined>(undefined);

  // Runs after every render: an edit re-renders the section that asked for the focus.
  useEffect(() => {
    const names = pending.current;
    if (names === undefined || container.current === null) return;
    pending.current = undefined;
    for (const name of names) {
      const el = container.current.querySelector<HTMLElement>(`[data-focus="${name}"]`);
      if (el && !(el as HTMLButtonElement).disabled) {
        el.focus();
        return;
      }
    }
  });

  const focusAfter = (...names: string[]) => {
    pending.current = names;
  };
  return { container, focusAfter };
}

import { useEffect } from 'react';
import { isTextEntry } from './isTextEntry.ts';
import { useHandler } from './useHandler.ts';

/**
 * Whether a key press is the shortcut written as its tooltip shows it ("Shift+L", "Shift+1",
 * "Ctrl+Enter", "F6"). Letters and digits are matched by the key's place (`code`), so that
 * Shift+1 is Shift+1 whatever the layout makes of it ("!" on most); other keys by name. Every
 * modifier not named must be up.
 */
export function matchesShortcut(e: KeyboardEvent, shortcut: string): boolean {
  const parts = shortcut.split('+');
  const key = parts.pop()!;
  const mods = new Set(parts);
  if ((e.ctrlKey || e.metaKey) !== mods.has('Ctrl')) return false;
  if (e.shiftKey !== mods.has('Shift') || e.altKey !== mods.has('Alt')) return false;
  if (/^[A-Z]$/.test(key)) return e.code === `Key${key}`;
  if (/^[0-9]$/.test(key)) return e.code === `Digit${key}`;
  return e.key === key;
}

/**
 * Runs `run` when the shortcut is pressed anywhere on the page but in a text field (where the
 * keys are the text's), unless `inText` (F6 leaves a field as it leaves anything else). `run` may change at every render; the listener is added once.
 */
export function useKeyShortcut(
  shortcut: string,
  run: () => void,
  { enabled = true, inText = false }: { enabled?: boolean; inText?: boolean } = {},
): void {
  const handler = useHandler(run);
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || (!inText && isTextEntry(e.target))) return;
      if (!matchesShortcut(e, shortcut)) return;
      e.preventDefault();
      handler();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [shortcut, enabled, inText, handler]);
}

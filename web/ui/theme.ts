import { useSyncExternalStore } from 'react';

/** What the user chose: follow the system, or one theme whatever the system says. */
export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const KEY = 'wakeflow.theme';
const query = () => window.matchMedia('(prefers-color-scheme: dark)');
const listeners = new Set<() => void>();

function readChoice(): ThemeChoice {
  const stored = localStorage.getItem(KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

let choice: ThemeChoice = 'system';
let theme: Theme = 'light';

function apply(): void {
  const next: Theme = choice === 'system' ? (query().matches ? 'dark' : 'light') : choice;
  theme = next;
  // One attribute drives every token (tokens.css); the system's preference is read here.
  document.documentElement.dataset.theme = next;
  for (const l of listeners) l();
}

// The theme is the document's (one attribute on <html>), so its state is the page's: one choice
// and one listener of the system's preference, whoever starts it and how often.
let stopFollowing: (() => void) | undefined;

/**
 * Reads the stored choice, applies it, and follows the system while the choice is "system".
 * Returns what stops following it; a second start replaces the first's listener.
 */
export function startTheme(): () => void {
  stopFollowing?.();
  choice = readChoice();
  apply();
  const media = query();
  const follow = () => {
    if (choice === 'system') apply();
  };
  media.addEventListener('change', follow);
  const stop = () => {
    media.removeEventListener('change', follow);
    if (stopFollowing === stop) stopFollowing = undefined;
  };
  stopFollowing = stop;
  return stop;
}

export function setThemeChoice(next: ThemeChoice): void {
  choice = next;
  if (next === 'system') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, next);
  apply();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The theme drawn now, light or dark (React Flow's colorMode takes it as it is). */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, () => theme);
}

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, () => choice);
}

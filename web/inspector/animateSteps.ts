import { useSyncExternalStore } from 'react';
import { animateStepsChoice } from '../state/session.ts';

/**
 * The "Animate steps" setting (kept across reloads, session.ts) and the system's
 * `prefers-reduced-motion`: a token runs along the edges a step took only when the setting is on
 * and the system does not ask for less motion. The page's state, as the theme is: one setting,
 * read once, whoever asks.
 */
const listeners = new Set<() => void>();
let chosen: boolean | undefined;
let reduced: boolean | undefined;
let media: MediaQueryList | undefined;

const notify = () => {
  for (const l of listeners) l();
};

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0 && typeof window.matchMedia === 'function') {
    media = window.matchMedia('(prefers-reduced-motion: reduce)');
    reduced = media.matches;
    media.addEventListener('change', onMotion);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) media?.removeEventListener('change', onMotion);
  };
}

function onMotion(e: MediaQueryListEvent): void {
  reduced = e.matches;
  notify();
}

const setting = (): boolean => (chosen ??= animateStepsChoice.get());
const reducedMotion = (): boolean =>
  (reduced ??=
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches);

/** Turns the setting on or off, here and for the next reload. */
export function setAnimateSteps(on: boolean): void {
  chosen = on;
  animateStepsChoice.set(on);
  notify();
}

/** The setting as chosen (the checkbox shows it). */
export function useAnimateStepsSetting(): boolean {
  return useSyncExternalStore(subscribe, setting);
}

/** Whether tokens run now: the setting on and no reduced motion asked for. */
export function useAnimateSteps(): boolean {
  return useSyncExternalStore(subscribe, () => setting() && !reducedMotion());
}

/** Whether the system asks for reduced motion (the setting's hint says so). */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, reducedMotion);
}

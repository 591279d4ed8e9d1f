import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeClientState } from '../runtime/workbenchRuntime.ts';
import { ClockTime, Countdown } from '../inspector/Countdown.tsx';
import { formatInstant } from '../inspector/formatTime.ts';
import { SaveWarning } from '../panels/SaveWarning.tsx';
import { SaveState } from '../shell/SaveState.tsx';
import { createRuntimeStateStore, followRuntime, RuntimeStateProvider } from './runtimeState.ts';

/** A runtime client that tells what the test says, as the worker's events would. */
function fakeRuntime(first: RuntimeClientState) {
  const listeners = new Set<(s: RuntimeClientState) => void>();
  return {
    onState(listener: (s: RuntimeClientState) => void) {
      listeners.add(listener);
      listener(first);
      return () => listeners.delete(listener);
    },
    tell: (state: RuntimeClientState) => listeners.forEach((l) => l(state)),
    listening: () => listeners.size,
  };
}

const T0 = Date.UTC(2026, 0, 1, 9, 0);
const HOUR = 3_600_000;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

describe('the clock and the save state: one copy on the page, set by the runtime client', () => {
  const setup = () => {
    const store = createRuntimeStateStore();
    const runtime = fakeRuntime({ clock: { mode: 'real' }, saveState: { saved: true } });
    const stop = followRuntime(store, runtime, 1000);
    // A render to markup reads a store's initial state (useSyncExternalStore's server
    // snapshot); this view of the store has it read what the store holds now, as a page does.
    const asNow = { ...store, getInitialState: () => store.getState() };
    const shown = (node: ReactNode) =>
      renderToStaticMarkup(createElement(RuntimeStateProvider, { value: asNow }, node));
    store.setState({ ready: true });
    return { store, runtime, stop, shown };
  };

  it('a virtual clock told by the runtime is the time every view shows', () => {
    const { runtime, shown } = setup();
    expect(shown(createElement(ClockTime))).toBe(formatInstant(T0));
    runtime.tell({
      clock: { mode: 'virtual', virtual: T0 + 5 * HOUR },
      saveState: { saved: true },
    });
    expect(shown(createElement(ClockTime))).toBe(formatInstant(T0 + 5 * HOUR));
    // A countdown counts from the same time: a timer due at +6 h is an hour off, not six.
    expect(shown(createElement(Countdown, { due: T0 + 6 * HOUR }))).toContain('in 1 h');
  });

  it('real time ticks; a virtual clock stays where it was told', () => {
    const { store, runtime } = setup();
    vi.advanceTimersByTime(3000);
    expect(store.getState().clock).toEqual({ mode: 'real', now: T0 + 3000 });
    runtime.tell({ clock: { mode: 'virtual', virtual: T0 }, saveState: { saved: true } });
    vi.advanceTimersByTime(5000);
    expect(store.getState().clock).toEqual({ mode: 'virtual', now: T0 });
  });

  it('a save the disk refused is shown by the save indicator and the warning at once', () => {
    const { runtime, shown } = setup();
    expect(shown(createElement(SaveState))).toContain('Saved');
    const refused = { saved: false as const, error: 'The disk is full', since: T0 };
    runtime.tell({ clock: { mode: 'real' }, saveState: refused });
    expect(shown(createElement(SaveState))).toBe('');
    expect(shown(createElement(SaveWarning))).toContain('The disk is full');
  });

  it('an event that tells nothing new sets nothing, so nothing renders', () => {
    const { store, runtime } = setup();
    const before = store.getState();
    // Real time moves on the tick alone, not on every event between two ticks.
    vi.setSystemTime(T0 + 400);
    runtime.tell({ clock: { mode: 'real' }, saveState: { saved: true } });
    expect(store.getState()).toBe(before);
    runtime.tell({ clock: { mode: 'virtual', virtual: T0 }, saveState: { saved: true } });
    const virtual = store.getState();
    runtime.tell({ clock: { mode: 'virtual', virtual: T0 }, saveState: { saved: true } });
    expect(store.getState()).toBe(virtual);
  });

  it('stops following when told to', () => {
    const { store, runtime, stop } = setup();
    stop();
    expect(runtime.listening()).toBe(0);
    runtime.tell({ clock: { mode: 'virtual', virtual: T0 + HOUR }, saveState: { saved: true } });
    vi.advanceTimersByTime(5000);
    expect(store.getState().clock).toEqual({ mode: 'real', now: T0 });
  });
});

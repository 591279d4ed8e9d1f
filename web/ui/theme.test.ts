import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTheme } from './theme.ts';

/** A page's window, document and storage, with the system's preference a listener list. */
function stubPage() {
  const listeners = new Set<() => void>();
  const media = {
    matches: false,
    addEventListener: (_: string, l: () => void) => listeners.add(l),
    removeEventListener: (_: string, l: () => void) => listeners.delete(l),
  };
  vi.stubGlobal('window', { matchMedia: () => media });
  vi.stubGlobal('document', { documentElement: { dataset: {} as Record<string, string> } });
  vi.stubGlobal('localStorage', { getItem: () => null, setItem() {}, removeItem() {} });
  return { listeners, media };
}
afterEach(() => vi.unstubAllGlobals());

describe('the theme follows the system with one listener, which it removes', () => {
  it('a second start replaces the first listener, and stop removes it', () => {
    const { listeners, media } = stubPage();
    startTheme();
    const stop = startTheme();
    expect(listeners.size).toBe(1);
    media.matches = true;
    for (const l of listeners) l();
    expect(document.documentElement.dataset.theme).toBe('dark');
    stop();
    expect(listeners.size).toBe(0);
  });
});

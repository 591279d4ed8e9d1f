import { beforeEach, describe, expect, it } from 'vitest';
import { inspectedProcess, lastStart, tabClock, welcome } from './session.ts';

/** A Storage kept in a Map, with a switch to make every write throw (a full disk). */
function memoryStorage() {
  const items = new Map<string, string>();
  const storage = {
    full: false,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (storage.full) throw new DOMException('full', 'QuotaExceededError');
      items.set(k, v);
    },
    removeItem: (k: string) => void items.delete(k),
    raw: (k: string, v: string) => items.set(k, v),
  };
  return storage;
}

let session: ReturnType<typeof memoryStorage>;
let local: ReturnType<typeof memoryStorage>;
beforeEach(() => {
  session = memoryStorage();
  local = memoryStorage();
  Object.assign(globalThis, { sessionStorage: session, localStorage: local });
});

describe('session: what a reload brings back is read as untrusted', () => {
  it('round-trips the clock, the process inspected and the last first context', () => {
    tabClock.set({ mode: 'virtual', now: 1_767_225_600_000 });
    inspectedProcess.set('p-1');
    lastStart.set('nightly-refresh', '{ "prices": { "read": 3 } }');
    welcome.dismiss();
    expect(tabClock.get()).toEqual({ mode: 'virtual', now: 1_767_225_600_000 });
    expect(inspectedProcess.get()).toBe('p-1');
    expect(lastStart.get('nightly-refresh')).toBe('{ "prices": { "read": 3 } }');
    expect(welcome.dismissed()).toBe(true);
  });

  it('refuses a stored clock that is not JSON, of another mode, or not a finite time', () => {
    for (const text of [
      '{not json',
      '{"mode":"warp","now":1}',
      '{"mode":"virtual","now":"soon"}',
      '{"mode":"virtual","now":1e999}',
      '{"mode":"virtual"}',
      'null',
      '[]',
      '"virtual"',
    ]) {
      session.raw('wakeflow.clock', text);
      expect(tabClock.get(), text).toBeUndefined();
    }
  });

  it('reads a process id or a context text that is not a string as none', () => {
    session.raw('wakeflow.inspected', '{"id":"p-1"}');
    expect(inspectedProcess.get()).toBeUndefined();
    local.raw('wakeflow.lastStart.f', '{"a":1}');
    expect(lastStart.get('f')).toBe('{}');
    local.raw('wakeflow.welcomed', '"yes"');
    expect(welcome.dismissed()).toBe(false);
  });

  it('loses only the convenience when storage refuses a write', () => {
    session.full = true;
    expect(() => tabClock.set({ mode: 'real', now: 0 })).not.toThrow();
    expect(tabClock.get()).toBeUndefined();
  });
});

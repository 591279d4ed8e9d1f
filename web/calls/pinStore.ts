import type { PinSource } from '../../runtime/calls/pinnedAnswer.ts';
import { InProcessLocks, type Locks } from '../../runtime/supervisor/locks.ts';
import { checkPin, MAX_PINS, pinKey, type Pin } from '../../shared/pins.ts';
import type { Checked } from './callSettingsRules.ts';

/** The workspace setting (its database's `meta` store) that holds the pins. */
export const PINS_SETTING = 'pins';
/** The lock every write of the pins holds (runtime/supervisor/locks.ts names the others). */
export const PINS_LOCK = 'wakeflow:pins';

/** Where the pins are kept: the workspace's settings (ResilientStore's getMeta and putMeta). */
export interface PinSettings {
  getMeta(key: string): Promise<unknown>;
  putMeta(key: string, value: unknown): Promise<void>;
}

/**
 * The workspace's pinned answers of calls (docs/format.md#pinned-answers), one setting of its
 * database: kept with the workspace (and deleted with it), outside every flow, so that pinning
 * changes no signature. Pins are not secrets, and hold none: a pin is made of an outcome the
 * sender has already scrubbed of every secret value it sent (runtime/calls/secrets.ts).
 *
 * Writes are read-modify-write of the one list, each holding the pins' lock: in the app a Web
 * Lock, which holds across the tabs of the origin, so that two tabs pinning at once (each with
 * its own worker) keep both pins instead of the later write dropping the earlier one.
 */
export function pinStore(settings: PinSettings, locks: Locks = new InProcessLocks()) {
  const inOrder = async <T>(work: () => Promise<T>): Promise<T> => {
    const done = await locks.withLock(PINS_LOCK, work);
    // Never refused: the lock is waited for, not tried.
    if (!done.held) throw new Error('the pins lock was not taken');
    return done.value;
  };
  const list = async (): Promise<Pin[]> => {
    // Checked as it is read back (runtime/store/restore.ts): a damaged list reads as none.
    const stored = await settings.getMeta(PINS_SETTING);
    return Array.isArray(stored) ? (stored as Pin[]) : [];
  };
  const write = (pins: Pin[]) => settings.putMeta(PINS_SETTING, pins);

  return {
    list,
    /** Pins an answer to a call, replacing that call's pin; the pin as kept, or why not. */
    pin: (value: unknown): Promise<Checked<Pin>> =>
      inOrder(async () => {
        const checked = checkPin(value);
        if (!checked.ok) return { ok: false, error: `the pin was not kept: ${checked.error}` };
        const key = pinKey(checked.pin);
        const pins = (await list()).filter((p) => pinKey(p) !== key);
        if (pins.length >= MAX_PINS)
          return { ok: false, error: `a workspace keeps at most ${MAX_PINS} pins` };
        await write([...pins, checked.pin]);
        return { ok: true, value: checked.pin };
      }),
    /** Removes a call's pin; false when it had none. */
    unpin: (at: { flow: string; node: string; trigger: string }): Promise<boolean> =>
      inOrder(async () => {
        const pins = await list();
        const key = pinKey(at);
        const kept = pins.filter((p) => pinKey(p) !== key);
        if (kept.length === pins.length) return false;
        await write(kept);
        return true;
      }),
    /**
     * An import's pins (already checked and renamed with their flows: web/workspace/importFlows.ts),
     * each replacing the pin of its call; refused whole, storing nothing, past MAX_PINS.
     */
    restore: (given: readonly Pin[]): Promise<Checked<number>> =>
      inOrder(async () => {
        if (given.length === 0) return { ok: true, value: 0 };
        const checked: Pin[] = [];
        for (const [i, value] of given.entries()) {
          const one = checkPin(value);
          if (!one.ok) return { ok: false, error: `pins[${i}]: ${one.error}` };
          checked.push(one.pin);
        }
        const keys = new Set(checked.map(pinKey));
        const kept = (await list()).filter((p) => !keys.has(pinKey(p)));
        if (kept.length + checked.length > MAX_PINS)
          return { ok: false, error: `a workspace keeps at most ${MAX_PINS} pins` };
        await write([...kept, ...checked]);
        return { ok: true, value: checked.length };
      }),
    /** The supervisor's pins: the list as stored at each attempt, so another tab's pin counts. */
    source(): PinSource {
      return {
        pinFor: async (at) => {
          const key = pinKey(at);
          return (await list()).find((p) => pinKey(p) === key);
        },
      };
    },
  };
}

export type PinStore = ReturnType<typeof pinStore>;

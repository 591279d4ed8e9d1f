import type { PinSource } from '../../runtime/calls/pinnedAnswer.ts';
import { checkPin, MAX_PINS, pinKey, type Pin } from '../../shared/pins.ts';
import type { Checked } from './callSettingsRules.ts';

/** The workspace setting (its database's `meta` store) that holds the pins. */
export const PINS_SETTING = 'pins';

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
 * Writes are read-modify-write of the one list, in order within this runtime; the page asks the
 * runtime worker for each, so a tab's writes never overtake one another.
 */
export function pinStore(settings: PinSettings) {
  let queue: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
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

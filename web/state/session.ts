/**
 * What the workbench keeps across a reload. This tab's own state (the process inspected, the
 * virtual clock) goes in sessionStorage, which belongs to the tab; what the user prefers
 * everywhere (panel sizes, the getting-started panel dismissed, the last start's context)
 * goes in localStorage. Either may be missing or hold anything: every read is checked.
 */

const KEYS = {
  inspected: 'wakeflow.inspected',
  clock: 'wakeflow.clock',
  welcomed: 'wakeflow.welcomed',
  lastStart: 'wakeflow.lastStart.',
  animateSteps: 'wakeflow.animateSteps',
} as const;

function read(storage: Storage, key: string): unknown {
  try {
    const text = storage.getItem(key);
    return text === null ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function write(storage: Storage, key: string, value: unknown): void {
  try {
    if (value === undefined) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(value));
  } catch {
    // A full or refused storage only loses a convenience, never work.
  }
}

export const inspectedProcess = {
  get: (): string | undefined => {
    const v = read(sessionStorage, KEYS.inspected);
    return typeof v === 'string' ? v : undefined;
  },
  set: (id: string | undefined) => write(sessionStorage, KEYS.inspected, id),
};

export interface StoredClock {
  mode: 'real' | 'virtual';
  now: number;
}

export const tabClock = {
  get: (): StoredClock | undefined => {
    const v = read(sessionStorage, KEYS.clock) as Partial<StoredClock> | undefined;
    if (!v || (v.mode !== 'real' && v.mode !== 'virtual')) return undefined;
    if (typeof v.now !== 'number' || !Number.isFinite(v.now)) return undefined;
    return { mode: v.mode, now: v.now };
  },
  set: (clock: StoredClock) => write(sessionStorage, KEYS.clock, clock),
};

export const welcome = {
  dismissed: (): boolean => read(localStorage, KEYS.welcomed) === true,
  dismiss: () => write(localStorage, KEYS.welcomed, true),
};

/** The first context of a flow's last start, as the JSON text typed; `{}` before any. */
export const lastStart = {
  get: (flow: string): string => {
    const v = read(localStorage, KEYS.lastStart + flow);
    return typeof v === 'string' ? v : '{}';
  },
  set: (flow: string, contextText: string) =>
    write(localStorage, KEYS.lastStart + flow, contextText),
};

/** Whether Step and Run animate a token along the edges taken; on unless turned off. */
export const animateStepsChoice = {
  get: (): boolean => read(localStorage, KEYS.animateSteps) !== false,
  set: (on: boolean) => write(localStorage, KEYS.animateSteps, on ? undefined : false),
};

/**
 * The supervisor's clock (docs/architecture.md#conventions: an injectable clock). The real one reads the time; the
 * virtual one only moves when told, so that tests and `flow simulate` run weeks in an instant.
 */
export interface Clock {
  now(): number;
}

/** A clock that can be moved forward: what `advance` needs. */
export interface SettableClock extends Clock {
  /** Moves the clock to `time`; it never goes back. */
  set(time: number): void;
}

export const isSettable = (clock: Clock): clock is SettableClock =>
  typeof (clock as Partial<SettableClock>).set === 'function';

export class VirtualClock implements SettableClock {
  constructor(private time: number) {}
  now(): number {
    return this.time;
  }
  set(time: number): void {
    if (time > this.time) this.time = time;
  }
}

/**
 * The app's clock: real time, or virtual time that a designer moves forward. Switching to virtual
 * starts from the real time now; switching back returns to real time (and due timers fire then).
 */
export class SwitchableClock implements SettableClock {
  private virtual: number | undefined;

  constructor(private readonly real: () => number = () => Date.now()) {}

  get mode(): 'real' | 'virtual' {
    return this.virtual === undefined ? 'real' : 'virtual';
  }

  now(): number {
    return this.virtual ?? this.real();
  }

  useVirtual(start = this.real()): void {
    this.virtual = start;
  }

  useReal(): void {
    this.virtual = undefined;
  }

  set(time: number): void {
    if (this.virtual === undefined)
      throw new Error('the real clock cannot be moved; switch to virtual time');
    if (time > this.virtual) this.virtual = time;
  }
}

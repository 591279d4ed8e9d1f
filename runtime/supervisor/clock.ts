/**
 * The supervisor's clock (DESIGN.md: an injectable clock). The real one reads the time; the
 * virtual one only moves when told, so that tests and `flow simulate` run weeks in an instant.
 */
export interface Clock {
  now(): number;
}

export class RealClock implements Clock {
  now(): number {
    return Date.now();
  }
}

export class VirtualClock implements Clock {
  constructor(private time: number) {}
  now(): number {
    return this.time;
  }
  /** Moves the clock to `time`; it never goes back. */
  set(time: number): void {
    if (time > this.time) this.time = time;
  }
}

import type { ContextRecord } from './records.ts';

/**
 * The contexts this supervisor last read or committed, the most recent last: the first guess
 * of a step, which saves a read per step. A guess another writer has since moved on fails the
 * step's compare-and-set, and the step runs again on the context read afresh. Several, since
 * wakeDue runs several wakes at once; a few dozen, since a guess is only worth it just after.
 */
export class ContextGuesses {
  private readonly known = new Map<string, ContextRecord>();

  get(id: string): ContextRecord | undefined {
    return this.known.get(id);
  }

  know(context: ContextRecord): void {
    this.known.delete(context.id);
    this.known.set(context.id, context);
    if (this.known.size > 32) this.known.delete(this.known.keys().next().value!);
  }
}

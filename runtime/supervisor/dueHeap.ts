/** A process due at a time: what a batch of wakes orders by (see wakeBatcher.ts). */
export interface Due {
  id: string;
  due: number;
  /** Order of creation: among equal due times, the older wakes first (dueProcesses' order). */
  created: number;
  contextId: string;
}

const before = (a: Due, b: Due) => a.due < b.due || (a.due === b.due && a.created < b.created);

/**
 * A binary min-heap of due times, earliest (then oldest) first: a batch of wakes takes the next
 * one in O(log n) however many processes are due, and puts back the next due time a wake left.
 */
export class DueHeap {
  private readonly items: Due[] = [];

  constructor(items: Iterable<Due> = []) {
    for (const item of items) this.push(item);
  }

  get size(): number {
    return this.items.length;
  }

  peek(): Due | undefined {
    return this.items[0];
  }

  push(item: Due): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }

  pop(): Due | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    a[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < a.length && before(a[l]!, a[min]!)) min = l;
      if (r < a.length && before(a[r]!, a[min]!)) min = r;
      if (min === i) break;
      [a[i], a[min]] = [a[min]!, a[i]!];
      i = min;
    }
    return top;
  }

  /** The items in order, earliest first, without taking them. */
  sorted(): Due[] {
    return [...this.items].sort((x, y) => (before(x, y) ? -1 : before(y, x) ? 1 : 0));
  }
}

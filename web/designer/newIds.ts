/** The first id of the form `${prefix}${n}` (n = 1, 2, …) that `taken` does not hold. */
export function freshId(prefix: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const id = `${prefix}${n}`;
    if (!taken.has(id)) return id;
  }
}

/** The prefix for new nodes of a kind: short words a designer would type. */
export const ID_PREFIX: Record<string, string> = {
  start: 'start',
  work: 'work',
  fanout: 'split',
  join: 'join',
  'continue-after': 'wait',
  call: 'call',
  subflow: 'sub',
  end: 'end',
};

import type { JournalEntry } from '../../runtime/supervisor/records.ts';

export interface ChartMark {
  node: string;
  at: number;
  generation: string;
  /** The index of its journal entry, so that selecting the mark selects the entry. */
  entry: number;
}

export interface ChartBar {
  node: string;
  from: number;
  to: number;
  /** The index of the entry that fell asleep. */
  entry: number;
}

/**
 * The journal as a chart's data: one mark per run of a node (with its generation) and one bar
 * per wait, from falling asleep to waking (or to `now`, while still asleep).
 */
export function journalChart(journal: readonly JournalEntry[], now: number) {
  const marks: ChartMark[] = [];
  const bars: ChartBar[] = [];
  const asleep = new Map<string, { from: number; entry: number }>();
  journal.forEach((e, entry) => {
    if (e.type === 'ran')
      marks.push({ node: e.node, at: e.at, generation: e.gen.join('.'), entry });
    else if (e.type === 'waited') asleep.set(e.node, { from: e.at, entry });
    else if (e.type === 'woke') {
      const slept = asleep.get(e.node);
      if (slept !== undefined) bars.push({ node: e.node, ...slept, to: e.at });
      asleep.delete(e.node);
    }
  });
  for (const [node, slept] of asleep) bars.push({ node, ...slept, to: Math.max(slept.from, now) });
  const nodes = [...new Set([...marks.map((m) => m.node), ...bars.map((b) => b.node)])];
  const times = [...marks.map((m) => m.at), ...bars.flatMap((b) => [b.from, b.to])];
  const start = times.length ? Math.min(...times) : now;
  const end = times.length ? Math.max(...times, start + 1) : now + 1;
  return { marks, bars, nodes, start, end };
}

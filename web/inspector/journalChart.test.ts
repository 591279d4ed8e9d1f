import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import { journalChart } from './journalChart.ts';

const e = (entry: object, at: number) => ({ ...entry, process: 'p', at }) as JournalEntry;

describe('the journal as a chart', () => {
  it('has a mark per run with its generation and a bar per wait, open waits running to now, each naming its entry', () => {
    const chart = journalChart(
      [
        e({ type: 'ran', node: 'read', gen: [0] }, 0),
        e({ type: 'waited', node: 'sleep', gen: [0], triggers: ['t'] }, 1),
        e({ type: 'woke', node: 'sleep', gen: [0], trigger: 't' }, 10),
        e({ type: 'ran', node: 'read', gen: [1] }, 10),
        e({ type: 'waited', node: 'sleep', gen: [1], triggers: ['t'] }, 11),
      ],
      15,
    );
    expect(chart.marks).toEqual([
      { node: 'read', at: 0, generation: '0', entry: 0 },
      { node: 'read', at: 10, generation: '1', entry: 3 },
    ]);
    expect(chart.bars).toEqual([
      { node: 'sleep', from: 1, to: 10, entry: 1 },
      { node: 'sleep', from: 11, to: 15, entry: 4 },
    ]);
    expect(chart.nodes).toEqual(['read', 'sleep']);
    expect([chart.start, chart.end]).toEqual([0, 15]);
  });
});

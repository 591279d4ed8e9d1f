import { describe, expect, it } from 'vitest';
import { nextOrder, searchOf, sortHint } from './tableQuery.ts';

const FLOWS = [
  { id: 'f-2', name: 'Payment' },
  { id: 'f-1', name: 'approval' },
  { id: 'f-3', name: 'Pay later' },
];

describe('the process table asks for an order and a search', () => {
  it('rule: a header sorts ascending, then descending, then goes back to the order of creation', () => {
    const asc = nextOrder(undefined, 'status', FLOWS);
    expect(asc).toEqual({ by: 'status', desc: false });
    const desc = nextOrder(asc, 'status', FLOWS);
    expect(desc).toEqual({ by: 'status', desc: true });
    expect(nextOrder(desc, 'status', FLOWS)).toBeUndefined();
    // Another column starts again from ascending.
    expect(nextOrder(desc, 'due', FLOWS)).toEqual({ by: 'due', desc: false });
    expect(sortHint(undefined, 'due', 'Due')).toBe('Sort by due, ascending');
    expect(sortHint(desc, 'status', 'Status')).toBe('Back to the order of creation');
  });

  it('rule: sorting by flow sends the flow ids in the order of the names the table shows', () => {
    expect(nextOrder(undefined, 'flow', FLOWS)).toEqual({
      by: 'flow',
      desc: false,
      flows: ['f-1', 'f-3', 'f-2'],
    });
  });

  it('rule: a search names the flows whose name holds the text, ignoring case; blank is no search', () => {
    expect(searchOf(' PAY ', FLOWS)).toEqual({ text: 'PAY', flows: ['f-2', 'f-3'] });
    expect(searchOf('p-1', FLOWS)).toEqual({ text: 'p-1' });
    expect(searchOf('   ', FLOWS)).toBeUndefined();
  });
});

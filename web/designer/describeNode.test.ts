import { describe, expect, it } from 'vitest';
import type { FlowNode, Trigger } from '../../shared/schema.ts';
import {
  countProblems,
  describeTrigger,
  listIds,
  nodeAriaLabel,
  nodeLabel,
  summarizeAssignments,
} from './describeNode.ts';

describe('nodeAriaLabel', () => {
  const read: FlowNode = { id: 'read', kind: 'work', label: 'Re-read prices', set: {} };

  it('names kind, id and label, and counts problems', () => {
    expect(nodeAriaLabel(read, ['a', 'b'])).toBe('work node read: Re-read prices, 2 problems');
    expect(nodeAriaLabel(read, ['a'])).toBe('work node read: Re-read prices, 1 problem');
    expect(nodeAriaLabel(read, [])).toBe('work node read: Re-read prices');
  });

  it('uses the kind names a designer reads, and no label when there is none', () => {
    expect(nodeAriaLabel({ id: 'sleep', kind: 'continue-after', on: [] }, [])).toBe(
      'continue after node sleep',
    );
    expect(nodeAriaLabel({ id: 'split', kind: 'fanout', label: '  ' }, [])).toBe(
      'fan-out node split',
    );
    expect(nodeAriaLabel({ id: 'b', kind: 'subflow', flow: 'enrich' }, [])).toBe('sub-flow node b');
  });

  it('says a continue-after with one call as the Call the canvas draws, with its method and host', () => {
    const pay: FlowNode = {
      id: 'pay',
      kind: 'continue-after',
      label: 'Charge the card',
      on: [{ id: 'charge', call: { url: "'https://shop.example/charge'", method: 'POST' } }],
    };
    expect(nodeAriaLabel(pay, ['a'])).toBe(
      'call node pay: Charge the card (POST shop.example), 1 problem',
    );
    // A call raced by a deadline is a wait, said as the continue-after it is drawn as.
    const raced: FlowNode = { ...pay, on: [...pay.on, { id: 'late', after: 'PT1H' }] };
    expect(nodeAriaLabel(raced, [])).toBe('continue after node pay: Charge the card');
  });
});

describe('nodeLabel', () => {
  it('treats an empty or blank label as none', () => {
    expect(nodeLabel({ id: 'a', kind: 'start' })).toBeUndefined();
    expect(nodeLabel({ id: 'a', kind: 'start', label: '' })).toBeUndefined();
    expect(nodeLabel({ id: 'a', kind: 'start', label: 'Go' })).toBe('Go');
  });
});

describe('summarizeAssignments', () => {
  it('keeps the order written and counts the rest', () => {
    const set = { a: '1', 'b.c': 'a + 1', d: 'true', e: '"x"', f: 'null' };
    expect(summarizeAssignments(set, 3)).toEqual({
      shown: [
        { path: 'a', expression: '1' },
        { path: 'b.c', expression: 'a + 1' },
        { path: 'd', expression: 'true' },
      ],
      more: 2,
    });
  });

  it('shows everything when there are few, and nothing when there is no set', () => {
    expect(summarizeAssignments({ a: '1' })).toEqual({
      shown: [{ path: 'a', expression: '1' }],
      more: 0,
    });
    expect(summarizeAssignments(undefined)).toEqual({ shown: [], more: 0 });
    expect(summarizeAssignments({ a: '1', b: '2' }, 0)).toEqual({ shown: [], more: 2 });
  });
});

describe('describeTrigger', () => {
  it('says a timer in words', () => {
    const t = describeTrigger({ id: 'daily', timer: 'PT24H' });
    expect(t).toMatchObject({ kind: 'timer', icon: '⏱', text: '24 hours', into: undefined });
    expect(t.words).toBe('timer daily: after 24 hours');
    expect(describeTrigger({ id: 'x', timer: 'P1DT30M' }).text).toBe('1 day 30 minutes');
  });

  it('says when a timer is not a duration rather than failing', () => {
    expect(describeTrigger({ id: 'x', timer: 'soon' }).text).toBe('"soon" (not a duration)');
  });

  it('names an event and where its payload goes', () => {
    const t = describeTrigger({ id: 'kick', event: 'prices.changed', into: 'lastChange' });
    expect(t).toMatchObject({ kind: 'event', icon: '✉', text: 'prices.changed' });
    expect(t.into).toBe('lastChange');
    expect(t.words).toBe('event kick: on prices.changed, into lastChange');
  });

  it('shows a human prompt, or how many fields it asks for', () => {
    const withPrompt: Trigger = {
      id: 'approve',
      human: { prompt: 'Approve the order?', fields: [{ name: 'ok', type: 'boolean' }] },
      into: 'approval',
    };
    expect(describeTrigger(withPrompt)).toMatchObject({
      kind: 'human',
      icon: '👤',
      text: 'Approve the order?',
      into: 'approval',
    });
    const noPrompt: Trigger = {
      id: 'ask',
      human: {
        fields: [
          { name: 'a', type: 'string' },
          { name: 'b', type: 'number' },
        ],
      },
    };
    expect(describeTrigger(noPrompt).text).toBe('asks for 2 fields');
    expect(describeTrigger({ id: 'one', human: { prompt: '', fields: [] } }).text).toBe(
      'asks for 0 fields',
    );
  });
});

describe('small words', () => {
  it('counts problems and lists ids', () => {
    expect(countProblems(1)).toBe('1 problem');
    expect(countProblems(3)).toBe('3 problems');
    expect(listIds([])).toBe('');
    expect(listIds(['a'])).toBe('a');
    expect(listIds(['a', 'b'])).toBe('a and b');
    expect(listIds(['a', 'b', 'c'])).toBe('a, b and c');
  });
});

describe('describeTrigger of a call (docs/format.md#calls: drawn with its method and host)', () => {
  it('says the method and the host the url starts with', () => {
    const t = describeTrigger({
      id: 'charged',
      into: 'payment',
      call: { method: 'POST', url: "'https://shop.example/api/' & order.id" },
    });
    expect(t).toMatchObject({ kind: 'call', text: 'POST shop.example', into: 'payment' });
    expect(t.words).toBe('call charged: POST shop.example, into payment');
  });

  it('says GET when no method is written, and a computed URL when the host is not written out', () => {
    expect(describeTrigger({ id: 'c', call: { url: 'config.endpoint' } }).text).toBe(
      'GET a computed URL',
    );
  });
});

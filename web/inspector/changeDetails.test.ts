import { describe, expect, it } from 'vitest';
import type { Flow } from '../../shared/schema.ts';
import { changeDetails } from './changeDetails.ts';

const flow = (timer: string, when?: string, set = 'prices.read + 1'): Flow => ({
  format: 'flow/1',
  id: 'f',
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'read', kind: 'work', set: { 'prices.read': set } },
    { id: 'sleep', kind: 'continue-after', on: [{ id: 'daily', timer }] },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'read' },
    { id: 'e2', from: 'read', to: 'sleep', ...(when ? { when } : {}) },
  ],
});

describe('changeDetails: a change named by its old and new values', () => {
  it('names the timer whose duration changed, old then new', () => {
    const change = { flow: 'f', item: 'node', id: 'sleep', change: 'changed' } as const;
    expect(changeDetails(change, flow('PT48H'), flow('PT24H'))).toEqual([
      { what: 'timer daily', before: 'PT48H', after: 'PT24H' },
    ]);
  });

  it('names an assignment whose expression changed', () => {
    const change = { flow: 'f', item: 'node', id: 'read', change: 'changed' } as const;
    expect(changeDetails(change, flow('PT1H'), flow('PT1H', undefined, 'prices.read + 2'))).toEqual(
      [{ what: 'prices.read', before: 'prices.read + 1', after: 'prices.read + 2' }],
    );
  });

  it('names a condition added to an edge as none before', () => {
    const change = { flow: 'f', item: 'edge', id: 'e2', change: 'changed' } as const;
    expect(changeDetails(change, flow('PT1H'), flow('PT1H', 'prices.read < 7'))).toEqual([
      { what: 'when', before: '(none)', after: 'prices.read < 7' },
    ]);
  });

  it('says nothing of an added or removed item, or when a version is missing', () => {
    const removed = { flow: 'f', item: 'node', id: 'sleep', change: 'removed' } as const;
    expect(changeDetails(removed, flow('PT1H'), flow('PT2H'))).toEqual([]);
    const changed = { flow: 'f', item: 'node', id: 'sleep', change: 'changed' } as const;
    expect(changeDetails(changed, undefined, flow('PT2H'))).toEqual([]);
    expect(changeDetails({ ...changed, id: 'gone' }, flow('PT1H'), flow('PT2H'))).toEqual([]);
  });

  describe('a call trigger (docs/format.md#calls)', () => {
    const payFlow = (call: Record<string, unknown>): Flow => ({
      format: 'flow/1',
      id: 'f',
      nodes: [
        { id: 'start', kind: 'start' },
        {
          id: 'pay',
          kind: 'continue-after',
          on: [{ id: 'charged', into: 'payment', call: call as never }],
        },
      ],
      edges: [{ id: 'e1', from: 'start', to: 'pay' }],
    });
    const change = { flow: 'f', item: 'node', id: 'pay', change: 'changed' } as const;
    const shop = "'https://shop.example/api/orders/' & order.id";

    it('is a call, by its method and host, not a person', () => {
      expect(
        changeDetails(change, payFlow({ url: shop }), payFlow({ method: 'POST', url: shop })),
      ).toEqual([
        {
          what: 'trigger charged',
          before: 'a call: GET shop.example into payment',
          after: 'a call: POST shop.example into payment',
        },
      ]);
    });

    it('names the host it moved to, and a URL whose host the text does not say as written', () => {
      const moved = changeDetails(
        change,
        payFlow({ url: shop }),
        payFlow({ url: 'order.paymentUrl' }),
      );
      expect(moved).toEqual([
        {
          what: 'trigger charged',
          before: 'a call: GET shop.example into payment',
          after: 'a call: GET to order.paymentUrl into payment',
        },
        { what: 'call charged url', before: shop, after: 'order.paymentUrl' },
      ]);
    });

    it('names a change of a header, the body, the timeout or the retry, which the sentence does not show', () => {
      const before = payFlow({ url: shop, headers: { 'X-A': "'1'" }, timeout: 'PT10S' });
      const after = payFlow({
        url: shop,
        headers: { 'X-A': "'2'" },
        body: '{ "amount": order.total }',
        timeout: 'PT10S',
        retry: { max: 3 },
      });
      expect(changeDetails(change, before, after)).toEqual([
        { what: 'call charged header X-A', before: "'1'", after: "'2'" },
        { what: 'call charged body', before: '(none)', after: '{ "amount": order.total }' },
        { what: 'call charged retry', before: '(none)', after: '{"max":3}' },
      ]);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { idempotencyKey } from './idempotencyKey.ts';

describe('Idempotency-Key (docs/format.md#calls)', () => {
  it('names the process, the wait, the node path and the generation', () => {
    expect(idempotencyKey('p1', { seq: 7, node: 'sub/pay', gen: [2, 1] })).toBe(
      'wakeflow-p1-7-sub~2Fpay-g2.1',
    );
    expect(idempotencyKey('p1', { seq: 7, node: 'pay', gen: [] })).toBe('wakeflow-p1-7-pay-g');
  });

  it('is URL-safe for any id, and two different waits never share a key', () => {
    const key = idempotencyKey('ü p/1?', { seq: 1, node: 'a b', gen: [0] });
    expect(key).toMatch(/^[A-Za-z0-9_~.-]+$/);
    expect(encodeURIComponent(key)).toBe(key);
    // Without escaping "-", these two would both read wakeflow-p-1-2-x-g.
    const a = idempotencyKey('p-1', { seq: 2, node: 'x', gen: [] });
    const b = idempotencyKey('p', { seq: 1, node: '2-x', gen: [] });
    expect(a).not.toBe(b);
  });
});

import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import { describeEntry } from './describeEntry.ts';

const entry = (e: object) => ({ process: 'p', seq: 1, at: 0, ...e }) as unknown as JournalEntry;

describe('journal entries in words', () => {
  it('says what a node wrote and what it removed, never "wrote removed"', () => {
    const w = (writes: object[]) =>
      describeEntry(entry({ type: 'context-written', node: 'n', writes }));
    expect(w([{ path: 'a', value: 1 }])).toBe('n wrote a = 1');
    expect(w([{ path: 'count' }])).toBe('n removed count');
    expect(w([{ path: 'a', value: 1 }, { path: 'count' }])).toBe('n wrote a = 1 and removed count');
  });

  it('counts a flow’s changes in the singular and the plural', () => {
    const c = (n: number) =>
      describeEntry(
        entry({ type: 'flow-changed', changes: Array.from({ length: n }, () => ({})) }),
      );
    expect(c(1)).toBe('its flow changed (1 change)');
    expect(c(2)).toBe('its flow changed (2 changes)');
  });
});

describe('a call attempt in words', () => {
  const attempt = (e: object) =>
    describeEntry(
      entry({ type: 'call-attempt', node: 'pay', attempt: 2, method: 'POST', ms: 12, ...e }),
    );

  it('rule: says the node, the attempt, its status, method and URL, and how long it took', () => {
    expect(attempt({ url: 'https://shop.test/pay', status: 503 })).toBe(
      'pay: attempt 2 → 503 (POST https://shop.test/pay, 12 ms)',
    );
  });

  it('rule: says the error of an attempt that got no answer', () => {
    expect(attempt({ url: 'https://shop.test/pay', status: 0, error: 'timeout' })).toBe(
      'pay: attempt 2 → timeout (POST https://shop.test/pay, 12 ms)',
    );
  });

  it('rule: an attempt answered by its pin says so, and that nothing was sent', () => {
    expect(attempt({ url: 'https://shop.test/pay', status: 200, ms: 0, pinned: true })).toBe(
      'pay: attempt 2 → 200, answered by its pin (POST https://shop.test/pay not sent)',
    );
  });

  it('rule: a secret in the recorded URL is shown by its name, as $secret(...)', () => {
    expect(attempt({ url: 'https://shop.test/pay?k={{secret:shop}}', status: 200 })).toBe(
      "pay: attempt 2 → 200 (POST https://shop.test/pay?k=$secret('shop'), 12 ms)",
    );
  });
});

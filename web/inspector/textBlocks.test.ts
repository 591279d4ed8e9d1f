import { describe, expect, it } from 'vitest';
import { textBlocks } from './textBlocks.ts';

describe('textBlocks: a long text in blocks of lines', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `"b${i}": true,`).join('\n');

  it('rule: the blocks put together are the text, each of at most the lines asked, counted', () => {
    for (const text of [lines(1), lines(200), lines(201), lines(10_001), `${lines(450)}\n`, '']) {
      const blocks = textBlocks(text, 200);
      expect(blocks.map((b) => b.text).join('')).toBe(text);
      for (const b of blocks) {
        expect(b.lines).toBeLessThanOrEqual(200);
        expect(b.lines).toBe(b.text === '' ? 0 : b.text.replace(/\n$/, '').split('\n').length);
      }
    }
    expect(textBlocks(lines(10_001), 200)).toHaveLength(51);
  });
});

import { describe, expect, it } from 'vitest';
import { sentences } from './useFileImport.ts';

describe('an import’s banner', () => {
  it('ends every note with a full stop, so that no two run together', () => {
    expect(sentences(['Imported A.', '"a" came in as "a-2"', '__proto__: removed', ' '])).toBe(
      'Imported A. "a" came in as "a-2". __proto__: removed.',
    );
  });
});

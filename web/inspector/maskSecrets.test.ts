import { describe, expect, it } from 'vitest';
import { maskedBody, maskSecrets } from './maskSecrets.ts';

describe('secrets in a recorded request, as the inspector shows them', () => {
  it('rule: every placeholder is written as the $secret expression that made it', () => {
    expect(maskSecrets('Bearer {{secret:shop}} and {{secret:a.b-c_1}}')).toBe(
      "Bearer $secret('shop') and $secret('a.b-c_1')",
    );
  });

  it('rule: text without a placeholder is left as it is, a broken one included', () => {
    expect(maskSecrets('{{secret:}} {secret:x} plain')).toBe('{{secret:}} {secret:x} plain');
  });

  it('rule: a body is indented JSON with its secrets masked, and nothing when there is none', () => {
    expect(maskedBody({ token: '{{secret:shop}}', n: 1 })).toBe(
      `{\n  "token": "$secret('shop')",\n  "n": 1\n}`,
    );
    expect(maskedBody(undefined)).toBe('');
  });
});

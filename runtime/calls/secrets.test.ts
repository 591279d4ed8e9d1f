import { describe, expect, it } from 'vitest';
import { fillSecrets, scrubSecrets, secretsFrom } from './secrets.ts';

const source = secretsFrom({ shop: 'tok-123', other: 'v2-abc' });

describe('secret placeholders (docs/format.md#calls)', () => {
  it('fills the url, header values and string leaves of the body, and nothing else', () => {
    const filled = fillSecrets(
      {
        url: 'https://x.example/?k={{secret:shop}}',
        headers: { '{{secret:shop}}': 'Bearer {{secret:other}}' },
        body: { '{{secret:shop}}': ['{{secret:shop}}', 5, null, { n: '{{secret:other}}' }] },
      },
      source,
    );
    expect(filled).toEqual({
      ok: true,
      value: {
        url: 'https://x.example/?k=tok-123',
        headers: { '{{secret:shop}}': 'Bearer v2-abc' },
        body: { '{{secret:shop}}': ['tok-123', 5, null, { n: 'v2-abc' }] },
      },
      used: new Map([
        ['shop', 'tok-123'],
        ['other', 'v2-abc'],
      ]),
    });
  });

  it('fails with the name of a secret that is not set, and never a value', () => {
    const filled = fillSecrets(
      { url: 'https://x.example/{{secret:shop}}', headers: { a: '{{secret:gone}}' } },
      source,
    );
    expect(filled).toEqual({ ok: false, error: 'secret "gone" is not set' });
  });

  it('scrubs sent values out of an answer, so an echo never puts a secret in the context', () => {
    const used = new Map([['shop', 'tok-123']]);
    expect(
      scrubSecrets({ body: { echoed: 'Bearer tok-123' }, headers: { x: 'tok-123' } }, used),
    ).toEqual({
      body: { echoed: 'Bearer {{secret:shop}}' },
      headers: { x: '{{secret:shop}}' },
    });
  });
});

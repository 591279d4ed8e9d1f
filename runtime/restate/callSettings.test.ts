import { describe, expect, it } from 'vitest';
import { parseOrigins, secretsFromEnv, secretVariable } from './callSettings.ts';

describe("flow serve's call settings (docs/restate.md#calls)", () => {
  it('reads $secret(name) from WAKEFLOW_SECRET_ and the name upper-cased, other characters as _', () => {
    expect(secretVariable('shop')).toBe('WAKEFLOW_SECRET_SHOP');
    expect(secretVariable('shop.api-key')).toBe('WAKEFLOW_SECRET_SHOP_API_KEY');
    const env = { WAKEFLOW_SECRET_SHOP: 'sk_1', WAKEFLOW_SECRET_EMPTY: '', SHOP: 'not this' };
    const secrets = secretsFromEnv(env);
    expect(secrets.get('shop')).toBe('sk_1');
    expect(secrets.get('Shop')).toBe('sk_1');
    // Set but empty is the operator's to say; absent is missing.
    expect(secrets.get('empty')).toBe('');
    expect(secrets.get('absent')).toBeUndefined();
    // Read as each attempt is sent, not copied when serve starts.
    env.WAKEFLOW_SECRET_SHOP = 'sk_2';
    expect(secrets.get('shop')).toBe('sk_2');
  });

  it('takes origins and *, normalised, and names the first value that is not an origin', () => {
    expect(parseOrigins(['https://Shop.example:443', 'http://127.0.0.1:8099/', '*'])).toEqual({
      ok: true,
      origins: ['https://shop.example', 'http://127.0.0.1:8099', '*'],
    });
    expect(parseOrigins([])).toEqual({ ok: true, origins: [] });
    const refused: [string, string][] = [
      ['shop.example', '"shop.example" is not an http(s) origin such as https://shop.example'],
      ['file:///etc', '"file:///etc" is not an http(s) origin such as https://shop.example'],
      ['', '"" is not an http(s) origin such as https://shop.example'],
      [
        'https://shop.example/api?x=1',
        '"https://shop.example/api?x=1" is more than an origin: give scheme, host and port only (https://shop.example)',
      ],
      [
        'https://user@shop.example',
        '"https://user@shop.example" is more than an origin: give scheme, host and port only (https://shop.example)',
      ],
    ];
    for (const [value, error] of refused)
      expect(parseOrigins(['https://fine.example', value]), value).toEqual({ ok: false, error });
  });
});

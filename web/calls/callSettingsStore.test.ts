import { afterEach, describe, expect, it } from 'vitest';
import { CallSettingsStore, callsDbName } from './callSettingsStore.ts';
import { MAX_ORIGINS, MAX_SECRET_LENGTH, MAX_SECRETS } from './callSettingsRules.ts';

let n = 0;
const opened: CallSettingsStore[] = [];
async function fresh() {
  const store = await CallSettingsStore.open(`settings-test-${n++}`);
  opened.push(store);
  return store;
}
afterEach(() => opened.splice(0).forEach((s) => s.close()));

describe('allowed origins (docs/format.md#calls)', () => {
  it('rule: the list is empty by default', async () => {
    expect(await (await fresh()).view()).toEqual({ origins: [], secrets: [] });
  });

  it('rule: an origin is kept normalised as URL does: lower-case host, default port dropped', async () => {
    const store = await fresh();
    expect(await store.allowOrigin('  HTTPS://Shop.Example:443/ ')).toEqual({
      ok: true,
      value: 'https://shop.example',
    });
    expect(await store.allowOrigin('http://127.0.0.1:8080')).toEqual({
      ok: true,
      value: 'http://127.0.0.1:8080',
    });
    // The same origin again is no second entry.
    await store.allowOrigin('https://shop.example');
    expect((await store.view()).origins).toEqual(['http://127.0.0.1:8080', 'https://shop.example']);
    await store.removeOrigin('https://shop.example');
    expect((await store.view()).origins).toEqual(['http://127.0.0.1:8080']);
  });

  it.each([
    ['https://shop.example/api', /no path, query or fragment: allow https:\/\/shop.example/],
    ['https://shop.example/?q=1', /no path, query or fragment/],
    ['https://shop.example#x', /no path, query or fragment/],
    ['https://me:pw@shop.example', /no user name or password/],
    ['ftp://shop.example', /not http:\/\/ or https:\/\//],
    ['javascript:alert(1)', /not http:\/\/ or https:\/\//],
    ['*', /not an origin/],
    ['shop.example', /not an origin/],
    ['', /write an origin/],
    ['https://' + 'a'.repeat(5000) + '.example', /at most 2048 characters/],
    [42, /an origin is text/],
    [{ toString: () => 'https://x.example' }, /an origin is text/],
  ])('rule: %j is refused with a clear message and nothing is stored', async (input, message) => {
    const store = await fresh();
    const checked = await store.allowOrigin(input);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.error).toMatch(message);
    expect((await store.view()).origins).toEqual([]);
  });

  it(`rule: at most ${MAX_ORIGINS} origins; the one over is refused and not stored`, async () => {
    const store = await fresh();
    for (let i = 0; i < MAX_ORIGINS; i++) await store.allowOrigin(`https://h${i}.example`);
    const over = await store.allowOrigin('https://one-more.example');
    expect(over).toEqual({ ok: false, error: `a workspace allows at most ${MAX_ORIGINS} origins` });
    expect((await store.view()).origins).toHaveLength(MAX_ORIGINS);
    // One already there is still fine.
    expect((await store.allowOrigin('https://h0.example')).ok).toBe(true);
  });
});

describe('secrets', () => {
  it('rule: a secret is added and replaced by name; the page view names it, never its value', async () => {
    const store = await fresh();
    expect(await store.setSecret('shop', 'first-value')).toEqual({ ok: true, value: 'shop' });
    expect(await store.setSecret('shop', 'second-value')).toEqual({ ok: true, value: 'shop' });
    const view = await store.view();
    expect(view).toEqual({ origins: [], secrets: ['shop'] });
    expect(JSON.stringify(view)).not.toContain('value');
    expect((await store.read()).secrets.get('shop')).toBe('second-value');
    await store.removeSecret('shop');
    expect((await store.read()).secrets.size).toBe(0);
  });

  it.each([
    ['', 'a-value', /write a name/],
    ['has space', 'a-value', /not a secret's name/],
    ['a'.repeat(101), 'a-value', /not a secret's name/],
    ["x')", 'a-value', /not a secret's name/],
    [7, 'a-value', /a secret's name is text/],
    ['shop', 'abc', /at least 4 characters, so that it can be masked/],
    ['shop', 'x'.repeat(MAX_SECRET_LENGTH + 1), /at most 8,192 characters/],
    ['shop', 'line\r\nInjected: 1', /no line break or control character/],
    ['shop', { value: 'object' }, /a secret's value is text/],
  ])(
    'rule: name %j with a bad value or name is refused, stores nothing, never echoes the value',
    async (name, value, message) => {
      const store = await fresh();
      const checked = await store.setSecret(name, value);
      expect(checked.ok).toBe(false);
      const error = !checked.ok ? checked.error : '';
      expect(error).toMatch(message);
      if (typeof value === 'string' && value.length >= 4) expect(error).not.toContain(value);
      expect((await store.read()).secrets.size).toBe(0);
    },
  );

  it('rule: a refused replacement keeps the value there was', async () => {
    const store = await fresh();
    await store.setSecret('shop', 'kept-value');
    await store.setSecret('shop', 'x'.repeat(10 * MAX_SECRET_LENGTH));
    expect((await store.read()).secrets.get('shop')).toBe('kept-value');
  });

  it(`rule: at most ${MAX_SECRETS} secrets`, async () => {
    const store = await fresh();
    for (let i = 0; i < MAX_SECRETS; i++) await store.setSecret(`s${i}`, 'a-value');
    expect(await store.setSecret('over', 'a-value')).toEqual({
      ok: false,
      error: `a workspace keeps at most ${MAX_SECRETS} secrets`,
    });
    expect((await store.setSecret('s0', 'replaced')).ok).toBe(true);
  });

  it('rule: the settings live in a database of their own, beside the workspace’s', () => {
    expect(callsDbName('wakeflow-workspace')).toBe('wakeflow-workspace-calls');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowOrigins } from '../../runtime/calls/originAllowlist.ts';
import { OriginLimiter } from '../../runtime/calls/originLimiter.ts';
import { secretsFrom } from '../../runtime/calls/secrets.ts';
import { startTestServer, type TestServer } from '../../runtime/calls/fixtures/testServer.ts';
import { testStore } from '../../runtime/store/fixtures/testStore.ts';
import { IdbStore } from '../../runtime/store/idbStore.ts';
import { InProcessLocks } from '../../runtime/supervisor/locks.ts';
import { MAX_PINS, type Pin } from '../../shared/pins.ts';
import { testRequest } from '../runtime/testRequest.ts';
import { PINS_SETTING, pinStore } from './pinStore.ts';

const pin: Pin = {
  flow: 'order',
  node: 'pay',
  trigger: 'charged',
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: { id: 'ch_1' },
};
const at = { flow: 'order', node: 'pay', trigger: 'charged' };

describe('the workspace keeps its pins (docs/format.md#pinned-answers)', () => {
  it('rule: a pin is kept in the workspace database, read back after it is reopened, and answers its call', async () => {
    const name = 'pins-reopened';
    const idb = await IdbStore.open(name);
    expect(await pinStore(idb).pin(pin)).toEqual({ ok: true, value: pin });
    idb.close();
    const reopened = await IdbStore.open(name);
    const pins = pinStore(reopened);
    expect(await pins.list()).toEqual([pin]);
    expect(await pins.source().pinFor(at)).toEqual(pin);
    expect(await pins.source().pinFor({ ...at, node: 'other' })).toBeUndefined();
    reopened.close();
  });

  it('rule: one pin per call: pinning again replaces it; unpin removes it', async () => {
    const pins = pinStore(await testStore('pins'));
    await pins.pin(pin);
    await pins.pin({ ...pin, status: 201 });
    await pins.pin({ ...pin, trigger: 'other' });
    expect((await pins.list()).map((p) => [p.trigger, p.status])).toEqual([
      ['charged', 201],
      ['other', 200],
    ]);
    expect(await pins.unpin(at)).toBe(true);
    expect(await pins.unpin(at)).toBe(false);
    expect((await pins.list()).map((p) => p.trigger)).toEqual(['other']);
  });

  it('rule: two tabs pinning at once keep every pin: each write holds the lock the tabs share', async () => {
    // Two tabs: two connections to one workspace database, each with its own pin store, and the
    // origin's locks between them (Web Locks in the app; an in-process stand-in here).
    const name = 'pins-two-tabs';
    const [one, two] = [await IdbStore.open(name), await IdbStore.open(name)];
    const shared = new InProcessLocks();
    const tabs = [pinStore(one, shared), pinStore(two, shared)];
    const triggers = Array.from({ length: 12 }, (_, i) => `t${i}`);
    const kept = await Promise.all(
      triggers.map((trigger, i) => tabs[i % 2]!.pin({ ...pin, trigger })),
    );
    expect(kept.every((k) => k.ok)).toBe(true);
    const stored = (await tabs[0]!.list()).map((p) => p.trigger).sort();
    expect(stored).toEqual([...triggers].sort());
    one.close();
    two.close();
  });

  it('bad input: a pin of the wrong shape, or too large, is refused naming why, and nothing is stored', async () => {
    const idb = await testStore('pins');
    const pins = pinStore(idb);
    expect(await pins.pin({ ...pin, status: 'ok' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^the pin was not kept: status: /) as unknown,
    });
    expect(await pins.pin({ ...pin, node: 'a/b' })).toMatchObject({
      ok: false,
      error: 'the pin was not kept: node: must not contain "/"',
    });
    expect(await pins.pin({ ...pin, body: 'x'.repeat(300_000) })).toMatchObject({
      ok: false,
      error: 'the pin was not kept: a pin may be at most 256 KB as JSON',
    });
    expect(await idb.getMeta(PINS_SETTING)).toBeUndefined();
  });

  it("bad input: an import that would pass the workspace's limit is refused whole, storing nothing", async () => {
    const pins = pinStore(await testStore('pins'));
    await pins.pin(pin);
    const many = Array.from({ length: MAX_PINS }, (_, i) => ({ ...pin, node: `n${i}` }));
    expect(await pins.restore(many)).toEqual({
      ok: false,
      error: `a workspace keeps at most ${MAX_PINS} pins`,
    });
    expect(await pins.list()).toEqual([pin]);
    expect(await pins.restore(many.slice(0, 3))).toEqual({ ok: true, value: 3 });
    expect(await pins.list()).toHaveLength(4);
  });

  it('bad input: a stored list that is not one of pins reads as none', async () => {
    const idb = await testStore('pins');
    await idb.putMeta(PINS_SETTING, [{ flow: 'x' }]);
    expect(await pinStore(idb).list()).toEqual([]);
  });
});

describe('a pin never holds a secret value (docs/security.md#calls)', () => {
  let server: TestServer;
  beforeAll(async () => void (server = await startTestServer()));
  afterAll(() => server.close());

  it("rule: the answer of a test request, pinned, holds the secret's placeholder where a server echoed its value", async () => {
    const SECRET = 'sk_live_0123456789';
    const shown = await testRequest(
      {
        id: 'charged',
        into: 'payment',
        call: {
          method: 'POST',
          url: `'${server.origin}/echo'`,
          headers: { Authorization: "'Bearer ' & $secret('shop')" },
          body: "{ 'token': $secret('shop') }",
        },
      },
      {},
      {
        secrets: secretsFrom({ shop: SECRET }),
        allow: allowOrigins([server.origin]),
        limiter: new OriginLimiter(),
        now: () => 0,
      },
    );
    // The server saw the value: it was sent.
    expect(JSON.stringify(server.requests.at(-1))).toContain(SECRET);
    if (shown.kind !== 'answer' || !shown.pinnable) throw new Error('no pinnable answer');
    const idb = await testStore('pins');
    const kept = await pinStore(idb).pin({ ...at, ...shown.pinnable });
    expect(kept.ok).toBe(true);
    const stored = JSON.stringify(await idb.getMeta(PINS_SETTING));
    expect(stored).not.toContain(SECRET);
    expect(stored).toContain('{{secret:shop}}');
  });

  it('rule: nothing that did not answer can be pinned: a refused request has no pinnable answer', async () => {
    const shown = await testRequest(
      { id: 'c', into: 'r', call: { url: "'https://not-allowed.example/'" } },
      {},
      {
        secrets: secretsFrom({}),
        allow: allowOrigins([]),
        limiter: new OriginLimiter(),
        now: () => 0,
      },
    );
    expect(shown).toMatchObject({ kind: 'answer', sent: false });
    expect(shown).not.toHaveProperty('pinnable');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWait, edge, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { startTestServer, type TestServer } from '../calls/fixtures/testServer.ts';
import { allowOrigins } from '../calls/originAllowlist.ts';
import { secretsFrom } from '../calls/secrets.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor } from './supervisor.ts';

/**
 * An advance of the virtual clock sends the attempts due now and wakes the other processes due
 * now while their answers come (wakeBatcher.ts, `CallTimes.send`): time still moves on only
 * once they have settled, and a process whose own call is in flight, or one of the same
 * context, is woken only after that call's fire, so what an advance leaves does not depend on
 * when the server answers (docs/format.md#calls).
 */

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

/** Sleeps a minute, then calls `/slow` into `res`. */
const payer = () =>
  flow({
    id: 'payer',
    nodes: [
      start(),
      wait('nap', [{ id: 't', timer: 'PT1M' }]),
      callWait('pay', { url: `'${server.origin}/slow'` }),
      end(),
    ],
    edges: [
      edge('start', 'nap'),
      edge('nap', 'pay', { trigger: 't' }),
      edge('pay', 'end', { trigger: 'c' }),
    ],
  });

/** Sleeps a minute, then notes what `res` holds. */
const noter = () =>
  flow({
    id: 'noter',
    nodes: [
      start(),
      wait('nap', [{ id: 't', timer: 'PT1M' }]),
      work('note', { seen: 'res.ok' }),
      end(),
    ],
    edges: [edge('start', 'nap'), edge('nap', 'note', { trigger: 't' }), edge('note', 'end')],
  });

/** Resolves the next time the supervisor says process `id` changed. */
function changed(supervisor: Supervisor, id: string): Promise<void> {
  return new Promise((resolve) => {
    const off = supervisor.onChange((p) => {
      if (p !== id) return;
      off();
      resolve();
    });
  });
}

describe('an advance wakes what else is due while its calls are in flight', () => {
  it('rule: a process due at the instant of a call in flight is woken before the answer comes; one of the same context waits for the fire, and time moves on once it is done', async () => {
    const store = await testStore('calls-in-flight');
    for (const f of [payer(), noter()]) await store.putFlow(f);
    const clock = new VirtualClock(T0);
    // One wake per batch: the payer's batch commits, then its call goes, then the others.
    const supervisor = new Supervisor(store, clock, {
      calls: { secrets: secretsFrom({}), allow: allowOrigins([server.origin]) },
      maxStepsPerBatch: 1,
    });
    await supervisor.start('payer', { id: 'a' });
    await supervisor.start('noter', { id: 'mate', shareContextWith: 'a' });
    await supervisor.start('noter', { id: 'other' });
    const otherWoke = changed(supervisor, 'other');
    const advancing = supervisor.advanceTo(T0 + MINUTE);
    await server.slowHeld(1);
    await otherWoke;
    // The unrelated process went on while the answer is held; the context's other process did
    // not, and the clock stands at the call's instant.
    expect((await supervisor.mustGet('other')).status).toBe('done');
    expect(server.slowWaiting()).toBe(1);
    expect((await supervisor.mustGet('mate')).status).toBe('waiting');
    expect(clock.now()).toBe(T0 + MINUTE);
    server.releaseSlow();
    await advancing;
    // The mate woke after the fire, and read what it wrote.
    const mate = await supervisor.mustGet('mate');
    expect(mate.status).toBe('done');
    const context = await store.getContext(mate.contextId);
    expect(context!.value).toMatchObject({ res: { ok: true }, seen: true });
    expect((await supervisor.mustGet('a')).status).toBe('done');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edge, end, flow, start, wait } from '../../shared/fixtures/flows.ts';
import { CallSender } from '../calls/callSender.ts';
import { attemptSettings, recordedCall } from '../calls/fixtures/attemptSettings.ts';
import { MemoryProgress } from '../calls/fixtures/callHost.ts';
import { startTestServer, type TestServer } from '../calls/fixtures/testServer.ts';
import { sendAttempt } from '../calls/sendAttempt.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor } from './supervisor.ts';

// Until the engine records calls, the trigger fired here is an event's with `into`: fireCall
// takes the trigger by id, whatever its kind, and writes the outcome where `into` says.
const charge = flow({
  id: 'charge',
  nodes: [start(), wait('pay', [{ id: 'charged', event: 'never', into: 'payment' }]), end('done')],
  edges: [edge('start', 'pay'), edge('pay', 'done')],
});

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

async function setup() {
  const store = await testStore();
  await store.putFlow(charge);
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const supervisor = new Supervisor(store, clock);
  await supervisor.start('charge', { id: 'p', context: {} });
  const seq = (await supervisor.mustGet('p')).snapshot.scope.waits[0]!.seq;
  const context = async () =>
    (await store.getContext((await supervisor.mustGet('p')).contextId))!.value;
  return { supervisor, clock, seq, context };
}

describe("the supervisor fires a call's trigger with its outcome (docs/format.md#calls)", () => {
  it('writes the outcome at into once; a second fire of the same wait changes nothing', async () => {
    const { supervisor, seq, context } = await setup();
    const outcome = { ok: true, status: 200, headers: {}, body: { id: 1 }, attempts: 1 };
    expect(await supervisor.fireCall('p', seq, 'charged', outcome)).toBe(true);
    expect(await context()).toEqual({ payment: outcome });
    expect((await supervisor.mustGet('p')).status).toBe('done');
    expect(await supervisor.fireCall('p', seq, 'charged', { ...outcome, attempts: 2 })).toBe(false);
    expect(await context()).toEqual({ payment: outcome });
  });

  it('drops an outcome for a stopped process or an unknown trigger, changing nothing', async () => {
    const { supervisor, seq, context } = await setup();
    expect(await supervisor.fireCall('p', seq, 'nope', {})).toBe(false);
    await supervisor.stop('p');
    expect(await supervisor.fireCall('p', seq, 'charged', {})).toBe(false);
    expect(await context()).toEqual({});
    expect((await supervisor.mustGet('p')).status).toBe('stopped');
  });

  it('takes the call sender: a real answer, retried on the virtual clock, lands in the context', async () => {
    const { supervisor, clock, seq, context } = await setup();
    server.answerSequence = [503, 200];
    const call = recordedCall(server.origin + '/sequence', {
      retry: { max: 2, interval: 60_000, backoff: 2, maxInterval: 3_600_000, on: [503] },
    });
    const sender = new CallSender({
      now: () => clock.now(),
      store: new MemoryProgress(),
      attempt: async (c, key, signal) => ({
        result: await sendAttempt(c, attemptSettings(server.origin, { key, signal })),
      }),
      fire: async (id, w, outcome) =>
        void (await supervisor.fireCall(id, w.seq, w.call.trigger, outcome)),
    });
    const w = { seq, node: 'pay', gen: [], call };
    await sender.sync('p', [w], true);
    await sender.sendDue();
    expect(await context()).toEqual({});
    clock.set(sender.nextDue()!);
    await sender.sendDue();
    expect(await context()).toMatchObject({
      payment: { ok: true, status: 200, body: { status: 200, n: 2 }, attempts: 2 },
    });
    expect(server.countByKey(`wakeflow-p-${seq}-pay-g`)).toBe(2);
  });
});

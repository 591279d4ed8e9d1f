import { afterEach, describe, expect, it, vi } from 'vitest';
import { InProcessLocks } from '../../runtime/supervisor/locks.ts';
import { edge, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { PeerMessage, Peers, WorkerStart } from './runtimeProtocol.ts';
import { openWorkerRuntime } from './workerRuntime.ts';

const T0 = Date.UTC(2026, 0, 1);
const SECOND = 1000;

/** A loop that counts a pass every two seconds, as a designer would try first. */
const everyTwoSeconds = flow({
  id: 'every-2s',
  nodes: [
    start(),
    work('tick', { count: 'count + 1' }),
    wait('sleep', [{ id: 't', timer: 'PT2S' }]),
    end(),
  ],
  edges: [edge('start', 'tick'), edge('tick', 'sleep'), edge('sleep', 'tick')],
});

let dbs = 0;
const open = (start: Partial<WorkerStart> = {}, peers?: Peers) =>
  openWorkerRuntime(
    {
      dbName: `worker-schedule-${++dbs}`,
      seed: [everyTwoSeconds],
      clock: { mode: 'real' },
      pace: 'own',
      now: T0,
      ...start,
    },
    () => {},
    new InProcessLocks(),
    peers,
  );

/** Two runtimes' peers joined as one BroadcastChannel joins tabs: a message reaches the other. */
function joinedPeers(): [Peers, Peers] {
  const hears: ((m: PeerMessage) => void)[] = [() => {}, () => {}];
  const side = (me: 0 | 1): Peers => ({
    post: (m) => queueMicrotask(() => hears[1 - me]!(structuredClone(m))),
    listen: (hear) => (hears[me] = hear),
    othersOpen: async () => true,
    close() {},
  });
  return [side(0), side(1)];
}

const count = async (runtime: Awaited<ReturnType<typeof open>>, id: string) => {
  const reading = await runtime.reading(id);
  const value = reading?.context.value as { count?: number } | null | undefined;
  return { wakes: reading ? (reading.record.wakes ?? 0) : undefined, count: value?.count };
};

describe("the worker's schedule (web/runtime/scheduler.ts, in workerRuntime.ts)", () => {
  afterEach(() => vi.useRealTimers());

  it('rule: a lone runtime on its own real time wakes a new PT2S loop on time, pass after pass', async () => {
    // Only the timers the schedule sets and the clock are faked; IndexedDB's own tasks run.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T0 });
    const runtime = await open();
    const p = await runtime.supervisor.start('every-2s', { context: { count: 0 } });
    // Start returned once the process was stored, before its first step.
    expect(p.status).toBe('running');
    await runtime.settled();
    await vi.waitFor(async () =>
      expect(await count(runtime, p.id)).toEqual({ wakes: 0, count: 1 }),
    );
    for (let pass = 1; pass <= 5; pass++) {
      await vi.advanceTimersByTimeAsync(2 * SECOND - 1);
      expect((await count(runtime, p.id)).wakes).toBe(pass - 1);
      await vi.advanceTimersByTimeAsync(1);
      await runtime.settled();
      await vi.waitFor(async () =>
        expect(await count(runtime, p.id)).toEqual({ wakes: pass, count: pass + 1 }),
      );
    }
    runtime.close();
  });

  it('rule: paced by the page, time moves only when the page sends it, and each tick wakes what fell due', async () => {
    const runtime = await open({ pace: 'page' });
    const p = await runtime.supervisor.start('every-2s', { context: { count: 0 } });
    await runtime.settled();
    await vi.waitFor(async () => expect((await count(runtime, p.id)).count).toBe(1));
    runtime.tick(T0 + 1999);
    await runtime.settled();
    expect((await count(runtime, p.id)).wakes).toBe(0);
    for (let pass = 1; pass <= 3; pass++) {
      runtime.tick(T0 + pass * 2 * SECOND);
      await vi.waitFor(async () =>
        expect(await count(runtime, p.id)).toEqual({ wakes: pass, count: pass + 1 }),
      );
    }
    runtime.close();
  });

  it('rule: a process another tab put to sleep is woken here on time, once that tab says so', async () => {
    const [a, b] = joinedPeers();
    const name = `worker-schedule-shared-${++dbs}`;
    const one = await open({ pace: 'page', dbName: name }, a);
    const two = await open({ pace: 'page', dbName: name }, b);
    const p = await one.supervisor.start('every-2s', { context: { count: 0 } });
    await one.settled();
    one.close();
    // Only the second runtime is left; its schedule learnt of the process from the first's message.
    await vi.waitFor(async () => expect((await count(two, p.id)).count).toBe(1));
    two.tick(T0 + 2 * SECOND);
    await vi.waitFor(async () => expect(await count(two, p.id)).toEqual({ wakes: 1, count: 2 }));
    two.close();
  });
});

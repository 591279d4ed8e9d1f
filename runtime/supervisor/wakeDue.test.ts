import { describe, expect, it } from 'vitest';
import { chain, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor, type StepWatch } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

/** Sleeps `timer`, then appends `mark` to the shared `log`. */
const marking = (id: string, timer: string, mark: string) =>
  flow({
    id,
    nodes: [
      start(),
      wait('sleep', [{ id: 't', timer }]),
      work('mark', { log: `log & "${mark}"` }),
      end(),
    ],
    edges: chain('start', 'sleep', 'mark', 'end'),
  });

describe('wakeDue wakes several processes at once', () => {
  it('processes sharing a context still write it in order of due time', async () => {
    const store = await testStore();
    const clock = new VirtualClock(T0);
    const flows = [
      marking('late', 'PT3H', 'c'),
      marking('early', 'PT1H', 'a'),
      marking('middle', 'PT2H', 'b'),
    ];
    for (const f of flows) await store.putFlow(f);
    const supervisor = new Supervisor(store, clock);
    const first = await supervisor.start('late', { id: 'p1', context: { log: '' } });
    await supervisor.start('early', { id: 'p2', shareContextWith: 'p1' });
    await supervisor.start('middle', { id: 'p3', shareContextWith: 'p1' });
    // Others on contexts of their own, woken in the same round.
    for (let i = 0; i < 10; i++)
      await supervisor.start('early', { id: `o${i}`, context: { log: '' } });
    clock.set(T0 + 3 * HOUR);
    expect(await supervisor.wakeDue()).toBe(13);
    const shared = await store.getContext(first.contextId);
    expect(shared?.value).toEqual({ log: 'abc' });
  });

  it('the watch sees each step enter and leave before the next one enters', async () => {
    const store = await testStore();
    const clock = new VirtualClock(T0);
    await store.putFlow(marking('early', 'PT1H', 'a'));
    const events: string[] = [];
    const watch: StepWatch = {
      entering: (p) => events.push(`enter ${p}`),
      left: (p) => events.push(`left ${p}`),
    };
    const supervisor = new Supervisor(store, clock, { watch });
    for (let i = 0; i < 6; i++)
      await supervisor.start('early', { id: `p${i}`, context: { log: '' } });
    events.length = 0;
    clock.set(T0 + HOUR);
    expect(await supervisor.wakeDue()).toBe(6);
    let inside: string | undefined;
    for (const e of events) {
      const [kind, p] = e.split(' ');
      if (kind === 'enter') {
        expect(inside === undefined || inside === p).toBe(true);
        inside = p;
      } else {
        inside = undefined;
      }
    }
    expect(events.filter((e) => e.startsWith('left')).length).toBeGreaterThanOrEqual(12);
  });
});

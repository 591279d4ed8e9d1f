import { describe, expect, it } from 'vitest';
import { chain, edge, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { testStore } from '../../runtime/store/fixtures/testStore.ts';
import { VirtualClock } from '../../runtime/supervisor/clock.ts';
import { Supervisor } from '../../runtime/supervisor/supervisor.ts';
import { markStopped, overlayOf, type NodeRunState } from './overlay.ts';

const T0 = Date.UTC(2026, 0, 1);

describe('the position of a process on its canvas', () => {
  it('marks the waiting node with its due time and generation, and what ran with its visits', async () => {
    const loop = flow({
      id: 'loop',
      nodes: [start(), work('tick', { n: 'n + 1' }), wait('sleep'), end()],
      edges: [
        ...chain('start', 'tick', 'sleep'),
        edge('sleep', 'tick', { when: 'n < 9' }),
        edge('sleep', 'end', { when: 'n >= 9' }),
      ],
    });
    const store = await testStore();
    await store.putFlow(loop);
    const supervisor = new Supervisor(store, new VirtualClock(T0));
    await supervisor.start('loop', { id: 'p', context: { n: 0 } });
    await supervisor.advanceTo(T0 + 3_600_000);
    const record = await supervisor.mustGet('p');
    const overlay = overlayOf(record, await store.journal('p'), await supervisor.sleptOn(record));
    expect(overlay.get('sleep')).toEqual({
      state: 'waiting',
      generation: '1',
      visits: 1,
      due: T0 + 2 * 3_600_000,
    });
    expect(overlay.get('tick')).toEqual({ state: 'ran', generation: '1', visits: 2, due: null });
    expect(overlay.has('end')).toBe(false);
  });

  it('says "stopped", with no due time, where a stopped process stands; what it did stays', () => {
    const overlay = new Map<string, NodeRunState>([
      ['sleep', { state: 'waiting', generation: '1', visits: 1, due: T0 }],
      ['next', { state: 'ready', generation: '1', visits: 0, due: null }],
      ['start', { state: 'ran', generation: '1', visits: 1, due: null }],
    ]);
    markStopped(overlay);
    expect(overlay.get('sleep')).toEqual({
      state: 'stopped',
      generation: '1',
      visits: 1,
      due: null,
    });
    expect(overlay.get('next')?.state).toBe('stopped');
    expect(overlay.get('start')?.state).toBe('ran');
  });
});

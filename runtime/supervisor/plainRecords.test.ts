import { describe, expect, it } from 'vitest';
import { end, wait, splitJoin } from '../../shared/fixtures/flows.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { toStorable } from '../store/storable.ts';
import { VirtualClock } from './clock.ts';
import { MAX_STEPS_PER_COMMIT } from './limits.ts';
import type { ProcessRecord } from './records.ts';
import { Supervisor } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);

/** A split wide enough that the run commits while running, then a wait, then the end. */
const wide = splitJoin('wide', MAX_STEPS_PER_COMMIT + 10, [
  wait('sleep', [{ id: 'hour', timer: 'PT1H' }]),
  end(),
]);

describe('the records a run commits', () => {
  it('rule: every process record a run commits is plain JSON (no field undefined), running, waiting or done, so a store keeps it as it is', async () => {
    const store = new MemoryStore();
    const committed: ProcessRecord[] = [];
    const commitStep = store.commitStep.bind(store);
    store.commitStep = (commit) => (committed.push(commit.process), commitStep(commit));
    const clock = new VirtualClock(T0);
    const supervisor = new Supervisor(store, clock);
    await store.putFlow(wide);
    await supervisor.start('wide', { id: 'p', context: {} });
    await supervisor.advanceTo(T0 + 2 * 3_600_000);
    expect(committed.map((r) => r.status)).toEqual(['running', 'waiting', 'done']);
    // toStorable gives back the very value when it is plain JSON, and rebuilds it otherwise.
    for (const record of committed) expect(toStorable(record)).toBe(record);
  });
});

import { describe, expect, it } from 'vitest';
import { minimalFlow } from '../../shared/fixtures/flows.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor } from './supervisor.ts';
import { storeCounts } from '../store/fixtures/storeCounts.ts';

const T0 = Date.UTC(2026, 0, 1);

describe('starting a process costs the same however many exist', () => {
  it('rule: a start reads only its own process record, whether 1 or 2,000 processes exist (the order of creation comes from an index)', async () => {
    const store = await testStore('start-cost');
    await store.putFlow(minimalFlow('once'));
    const first = new Supervisor(store, new VirtualClock(T0));
    let before = storeCounts(store).processReads;
    await first.start('once', { id: 'p0' });
    const alone = storeCounts(store).processReads - before;

    const record = (await store.getProcess('p0'))!;
    const many = Array.from({ length: 2000 }, (_, i) => ({
      ...record,
      id: `bulk${i}`,
      created: i + 1,
    }));
    await store.saveBatch({
      flows: [],
      versions: [],
      contexts: [],
      changes: [],
      processes: many,
      journal: [],
    });

    // A supervisor opened now (a reload) reads the order of creation once, from the index.
    const later = new Supervisor(store, new VirtualClock(T0));
    before = storeCounts(store).processReads;
    const started = await later.start('once', { id: 'q' });
    expect(storeCounts(store).processReads - before).toBe(alone);
    expect(started.created).toBe(2001);
    before = storeCounts(store).processReads;
    await later.start('once', { id: 'r' });
    expect(storeCounts(store).processReads - before).toBe(alone);
    expect((await store.getProcess('r'))!.created).toBe(2002);
  });
});

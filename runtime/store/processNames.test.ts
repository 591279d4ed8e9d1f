import { describe, expect, it } from 'vitest';
import { flow, start, wait, end, chain } from '../../shared/fixtures/flows.ts';
import { VirtualClock } from '../supervisor/clock.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { T0, hourly } from './fixtures/storeScenarios.ts';
import { testStore } from './fixtures/testStore.ts';

describe("processNames (the start form's list)", () => {
  it('rule: every process by id and flow, oldest first across flows and statuses; a record found damaged is left out', async () => {
    const store = await testStore('names');
    await store.putFlow(hourly(1));
    await store.putFlow(
      flow({ id: 'other', nodes: [start(), wait('w'), end()], edges: chain('start', 'w', 'end') }),
    );
    const supervisor = new Supervisor(store, new VirtualClock(T0));
    for (const [id, f] of [
      ['a', 'other'],
      ['b', 'hourly'],
      ['c', 'other'],
      ['d', 'hourly'],
    ])
      await supervisor.start(f!, { id: id!, context: { count: 0 } });
    await supervisor.stop('c');
    const d = (await store.db.get('processes', 'd'))!;
    await store.db.put('processes', { ...d, pinned: 'yes' } as never);
    await store.listProcesses();

    expect(await store.processNames()).toEqual([
      { id: 'a', flow: 'other' },
      { id: 'b', flow: 'hourly' },
      { id: 'c', flow: 'other' },
    ]);
  });
});

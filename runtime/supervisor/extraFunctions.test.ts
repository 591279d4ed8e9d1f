import { describe, expect, it } from 'vitest';
import { chain, end, flow, start, work } from '../../shared/fixtures/flows.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor } from './supervisor.ts';

/**
 * Functions besides JSONata's own reach expressions only through the supervisor's options and
 * the engine's environment (EngineEnv.functions): no module holds them, so one supervisor's
 * binding is nobody else's.
 */
const doubling = flow({
  id: 'doubling',
  nodes: [start(), work('w', { n: '$twice(21)' }), end()],
  edges: chain('start', 'w', 'end'),
});

async function run(supervisor: Supervisor) {
  const record = await supervisor.start('doubling');
  const done = await supervisor.mustGet(record.id);
  return { done, context: (await supervisor.store.getContext(done.contextId))?.value };
}

describe('extra functions, given in the supervisor options', () => {
  it('are handed to the engine: a process calls them', async () => {
    const store = await testStore();
    await store.putFlow(doubling);
    const twice = (n: number) => n * 2;
    const { done, context } = await run(
      new Supervisor(store, new VirtualClock(0), { functions: { twice } }),
    );
    expect(done.status).toBe('done');
    expect(context).toEqual({ n: 42 });
  });

  it("belong to that supervisor only: another one's processes cannot call them", async () => {
    const store = await testStore();
    await store.putFlow(doubling);
    new Supervisor(store, new VirtualClock(0), { functions: { twice: (n: number) => n * 2 } });
    const { done } = await run(new Supervisor(store, new VirtualClock(0)));
    expect(done.status).toBe('failed');
  });

  it('may not take a name the shortcut or the step binds', async () => {
    const store = await testStore();
    for (const name of ['exists', 'now', 'random'])
      expect(
        () => new Supervisor(store, new VirtualClock(0), { functions: { [name]: () => 1 } }),
      ).toThrow(`$${name} cannot be bound`);
  });
});

import { describe, expect, it } from 'vitest';
import { chain, end, flow, start, work } from '../../shared/fixtures/flows.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { VirtualClock } from './clock.ts';
import type { StepCommit } from './store.ts';
import { Supervisor } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);

const three = flow({
  id: 'three',
  nodes: [
    start(),
    work('a', { n: '1' }),
    work('b', { n: 'n + 1' }),
    work('c', { n: 'n + 1' }),
    end(),
  ],
  edges: chain('start', 'a', 'b', 'c', 'end'),
});

async function commitsOf(store: MemoryStore) {
  const commits: StepCommit[] = [];
  const commitStep = store.commitStep.bind(store);
  store.commitStep = (commit) => (commits.push(commit), commitStep(commit));
  const supervisor = new Supervisor(store, new VirtualClock(T0));
  await store.putFlow(three);
  const record = await supervisor.start('three', { id: 'p', context: {} });
  return { commits, context: await store.getContext(record.contextId) };
}

describe('context changes of a run', () => {
  it('rule: on a store that keeps no journal a run makes no change record, and its commit still counts a version per node that wrote', async () => {
    const none = await commitsOf(new MemoryStore({ journal: false }));
    expect(none.commits).toHaveLength(1);
    expect(none.commits[0]!.context.write).toMatchObject({ changes: [], versions: 3 });
    expect(none.context).toMatchObject({ version: 3, value: { n: 3 } });

    const kept = await commitsOf(new MemoryStore());
    expect(kept.commits[0]!.context.write!.changes.map((c) => [c.node, c.version])).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    expect(kept.context).toMatchObject({ version: 3, value: { n: 3 } });
  });
});

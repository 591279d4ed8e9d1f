import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../runtime/supervisor/clock.ts';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import { Supervisor } from '../../runtime/supervisor/supervisor.ts';
import { testStore } from '../../runtime/store/fixtures/testStore.ts';
import {
  edge,
  end,
  fanout,
  flow,
  start,
  subflow,
  wait,
  work,
} from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { seqOf } from './journalKinds.ts';
import { stepTrail } from './stepTrail.ts';

const T0 = Date.UTC(2026, 0, 1);

// A choice on the context, and a continue-after with a trigger edge and a general one.
const choice = flow({
  id: 'choice',
  nodes: [
    start(),
    work('decide', { n: 'n + 1' }),
    work('big'),
    work('small'),
    wait('gate', [
      { id: 'ok', event: 'ok' },
      { id: 'later', timer: 'PT1H' },
    ]),
    work('approved'),
    work('after'),
    end(),
  ],
  edges: [
    edge('start', 'decide'),
    edge('decide', 'big', { when: 'n > 1' }),
    edge('decide', 'small', { when: 'n <= 1' }),
    edge('small', 'gate'),
    edge('big', 'end'),
    edge('gate', 'approved', { trigger: 'ok' }),
    edge('gate', 'after'),
    edge('approved', 'end'),
    edge('after', 'end'),
  ],
});

async function setUp(flows: Flow[], context: unknown) {
  const store = await testStore('step-trail');
  for (const f of flows) await store.putFlow(f);
  const supervisor = new Supervisor(store, new VirtualClock(T0));
  await supervisor.start(flows[0]!.id, { id: 'p', context, paused: true });
  const byId = new Map(flows.map((f) => [f.id, f]));
  /** Runs `control`, and gives the trail of what it wrote, as the inspector reads it. */
  const trailOf = async (control: () => Promise<unknown>) => {
    const before = lastSeq(await store.journal('p'));
    await control();
    return stepTrail(await store.journal('p'), before, flows[0]!.id, byId);
  };
  return { supervisor, trailOf };
}

const lastSeq = (journal: readonly JournalEntry[]) => {
  const last = journal.at(-1);
  return last && seqOf(last);
};

describe('the trail of a Step or a Run (docs/decisions.md#watching-a-step-and-acting-at-a-wait-issue-26-points-14-and-15)', () => {
  it('rule: a Step marks the one node it ran and the edge it took; the next Step marks only its own', async () => {
    const { supervisor, trailOf } = await setUp([choice], { n: 0 });
    const first = await trailOf(() => supervisor.stepOnce('p'));
    expect([...first.ran]).toEqual(['start']);
    expect(first.edges).toEqual(['start>decide']);
    const second = await trailOf(() => supervisor.stepOnce('p'));
    expect([...second.ran]).toEqual(['decide']);
    // n became 1: the condition `n <= 1` held, `n > 1` did not; only the edge taken is marked.
    expect(second.edges).toEqual(['decide>small']);
  });

  it('rule: a Run marks every node it ran and every edge it took, in order, up to where it sleeps', async () => {
    const { supervisor, trailOf } = await setUp([choice], { n: 0 });
    const trail = await trailOf(() => supervisor.resume('p'));
    expect([...trail.ran]).toEqual(['start', 'decide', 'small']);
    expect(trail.edges).toEqual(['start>decide', 'decide>small', 'small>gate']);
  });

  it('rule: a continue-after woken by a trigger takes that trigger’s edge and the general ones, not another trigger’s', async () => {
    const { supervisor, trailOf } = await setUp([choice], { n: 0 });
    await supervisor.resume('p');
    const trail = await trailOf(() => supervisor.deliverEvent('ok', {}, 'p'));
    expect(trail.ran.has('gate')).toBe(true);
    expect(trail.edges.slice(0, 2)).toEqual(['gate>approved', 'gate>after']);
  });

  it('rule: a fan-out takes all its edges; a sub-flow’s nodes and edges are named by their path', async () => {
    const inner = flow({
      id: 'inner',
      nodes: [start(), work('x'), end()],
      edges: [edge('start', 'x'), edge('x', 'end')],
    });
    const outer = flow({
      id: 'outer',
      nodes: [start(), fanout('split'), work('a'), subflow('sub', 'inner'), end()],
      edges: [
        edge('start', 'split'),
        edge('split', 'a'),
        edge('split', 'sub'),
        edge('a', 'end'),
        edge('sub', 'end'),
      ],
    });
    const { supervisor, trailOf } = await setUp([outer, inner], {});
    await supervisor.stepOnce('p');
    const fan = await trailOf(() => supervisor.stepOnce('p'));
    expect(fan.edges).toEqual(['split>a', 'split>sub']);
    const all = await trailOf(() => supervisor.resume('p'));
    expect(all.ran.has('sub/x')).toBe(true);
    expect(all.edges).toContain('sub/start>x');
    expect(all.edges).toContain('sub/x>end');
  });

  it('rule: nothing written since gives an empty trail; a journal of entries without numbers, or flows unknown, gives no edge and no error', () => {
    const entries = [
      { type: 'ran', node: 'ghost', gen: [], process: 'p', at: T0, seq: 1 },
    ] as unknown as JournalEntry[];
    expect(stepTrail(entries, 1, 'none', new Map())).toEqual({ ran: new Set(), edges: [] });
    const trail = stepTrail(entries, 0, 'none', new Map());
    expect([...trail.ran]).toEqual(['ghost']);
    expect(trail.edges).toEqual([]);
  });
});

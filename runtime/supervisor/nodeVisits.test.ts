import { describe, expect, it } from 'vitest';
import {
  chain,
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
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { nodeVisits, VALUE_TEXT, VISITS_SHOWN, type NodeVisits } from './nodeVisits.ts';
import type { JournalEntry } from './records.ts';
import { Supervisor } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

// Counts up once a pass, sleeping an hour (or until a kick) between passes, three passes in all.
const loop = flow({
  id: 'loop',
  nodes: [
    start(),
    work('count', { n: 'n + 1', last: 'n' }),
    wait('sleep', [
      { id: 'hourly', timer: 'PT1H' },
      { id: 'kick', event: 'kick', into: 'kicked' },
    ]),
    work('never', { x: '1' }),
    end('done'),
  ],
  edges: [
    edge('start', 'count'),
    edge('count', 'sleep'),
    edge('sleep', 'count', { id: 'again', when: 'n < 3' }),
    edge('sleep', 'done', { id: 'stop', when: 'n >= 3' }),
    edge('done', 'never', { when: 'false' }),
  ],
});

async function run(flows: Flow[], context: unknown, drive?: (s: Supervisor) => Promise<void>) {
  const store = await testStore('node-visits');
  for (const f of flows) await store.putFlow(f);
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock);
  await supervisor.start(flows[0]!.id, { id: 'p', context });
  await drive?.(supervisor);
  const record = await supervisor.mustGet('p');
  const journal = await store.journal('p');
  const changes = await store.contextChanges(record.contextId);
  const flowsById = await supervisor.sleptOn(record);
  const visits = (node: string, limit?: number, upTo?: number): NodeVisits =>
    nodeVisits({ journal, changes, flows: flowsById, flow: record.flow, node, limit, upTo });
  return Object.assign(visits, { journal });
}

const ok = (v: NodeVisits) => {
  if (!v.ok) throw new Error(v.problem);
  return v;
};
const text = (s: string) => ({ text: s, cut: false });

describe("a node's visits, from the process's journal (docs/format.md#loops-and-generations)", () => {
  it('rule: a loop visits its nodes once per generation, each with what it read and wrote, old → new', async () => {
    const visits = await run([loop], { n: 0 }, async (s) => {
      await s.advanceTo(T0 + 3 * HOUR);
    });
    const count = ok(visits('count'));
    expect(count.total).toBe(3);
    expect(count.visits.map((v) => [v.number, v.gen, v.status])).toEqual([
      [1, [0], 'ran'],
      [2, [1], 'ran'],
      [3, [2], 'ran'],
    ]);
    const second = count.visits[1]!;
    expect(second.reads).toEqual([{ path: 'n', by: ['set n', 'set last'], value: text('1') }]);
    // `last` is written after `n` and reads it: the write says what it found there before.
    expect(second.writes).toEqual([
      { path: 'n', before: text('1'), after: text('2') },
      { path: 'last', before: text('1'), after: text('2') },
    ]);
    expect(second.at).toBe(T0 + HOUR);
  });

  it('rule: a continue-after tells the trigger that fired and the conditions its edges read after it', async () => {
    const visits = await run([loop], { n: 0 }, async (s) => {
      await s.advanceTo(T0 + HOUR);
      await s.deliverEvent('kick', { by: 'test' }, 'p');
    });
    const sleep = ok(visits('sleep'));
    expect(sleep.visits.map((v) => [v.gen, v.status, v.trigger?.id, v.trigger?.kind])).toEqual([
      [[0], 'ran', 'hourly', 'timer'],
      [[1], 'ran', 'kick', 'event'],
      [[2], 'waiting', undefined, undefined],
    ]);
    const kicked = sleep.visits[1]!;
    expect(kicked.writes).toEqual([
      { path: 'kicked', before: text('(none)'), after: text('{"by":"test"}') },
    ]);
    expect(kicked.conditions).toEqual([
      { path: 'n', by: ['edge again', 'edge stop'], value: text('2') },
    ]);
    expect(kicked.trigger?.at).toBe(T0 + HOUR);
    // A visit still asleep took no edge: it read no condition.
    expect(sleep.visits[2]!.conditions).toEqual([]);
  });

  it('rule: as of a journal entry (time travel), only the visits up to that entry are counted, a later wake not yet', async () => {
    const visits = await run([loop], { n: 0 }, async (s) => {
      await s.advanceTo(T0 + 3 * HOUR);
    });
    // The entry where the second pass fell asleep: the third pass has not happened then.
    const asleep = visits.journal.filter((e) => e.type === 'waited' && e.node === 'sleep')[1]!;
    const upTo = (asleep as { seq: number }).seq;
    const count = ok(visits('count', undefined, upTo));
    expect(count.total).toBe(2);
    expect(count.visits.map((v) => v.gen)).toEqual([[0], [1]]);
    const sleep = ok(visits('sleep', undefined, upTo));
    // The sleep of that pass is still asleep as of then, though it woke later.
    expect(sleep.visits.map((v) => [v.gen, v.status])).toEqual([
      [[0], 'ran'],
      [[1], 'waiting'],
    ]);
    expect(ok(visits('done', undefined, upTo)).total).toBe(0);
    // Now (no entry picked) every visit counts; a number before every entry leaves none.
    expect(ok(visits('count')).total).toBe(3);
    expect(ok(visits('count', undefined, 0)).total).toBe(0);
  });

  it('rule: a loop of many passes sends its newest visits only, and says how many there are', async () => {
    const visits = await run([loop], { n: 0 }, async (s) => {
      await s.advanceTo(T0 + 3 * HOUR);
    });
    const newest = ok(visits('count', 2));
    expect(newest.total).toBe(3);
    expect(newest.visits.map((v) => v.number)).toEqual([2, 3]);
    expect(newest.visits[1]!.writes[0]).toEqual({ path: 'n', before: text('2'), after: text('3') });
  });

  it('rule: a node reached by two branches of a fan-out is visited twice in one generation', async () => {
    const fan = flow({
      id: 'fan',
      nodes: [
        start(),
        fanout('split'),
        work('a'),
        work('b'),
        work('m', { hits: 'hits + 1' }),
        end(),
      ],
      edges: [...chain('start', 'split', 'a', 'm', 'end'), edge('split', 'b'), edge('b', 'm')],
    });
    const m = ok((await run([fan], { hits: 0 }))('m'));
    expect(m.visits.map((v) => [v.gen, v.writes])).toEqual([
      [[], [{ path: 'hits', before: text('0'), after: text('1') }]],
      [[], [{ path: 'hits', before: text('1'), after: text('2') }]],
    ]);
  });

  it('rule: a node never reached has no visit; a node the flow lacks is named', async () => {
    const visits = await run([loop], { n: 2 }, async (s) => {
      await s.advanceTo(T0 + HOUR);
    });
    expect(visits('never')).toMatchObject({ ok: true, total: 0, visits: [] });
    expect(visits('nowhere')).toEqual({
      ok: false,
      problem: 'the flow this process runs on has no node "nowhere"',
    });
  });

  it('rule: a node inside a sub-flow is named by its path, and a failure says its error', async () => {
    const inner = flow({
      id: 'inner',
      nodes: [start(), work('step', { deep: "$error('boom')" }), end()],
      edges: chain('start', 'step', 'end'),
    });
    const top = flow({
      id: 'top',
      nodes: [start(), subflow('sub', 'inner'), end()],
      edges: chain('start', 'sub', 'end'),
    });
    const step = ok((await run([top, inner], {}))('sub/step'));
    expect(step.visits).toHaveLength(1);
    expect(step.visits[0]).toMatchObject({ status: 'failed', gen: [], writes: [] });
    expect(step.visits[0]!.error).toMatch(/boom/);
  });

  it("rule: a call's outcome is the value written at its into (docs/format.md#calls)", async () => {
    const charge = flow({
      id: 'charge',
      nodes: [
        start(),
        wait('pay', [
          { id: 'charged', into: 'payment', call: { url: "'https://shop.example/' & order.id" } },
        ]),
        end(),
      ],
      edges: chain('start', 'pay', 'end'),
    });
    const outcome = { ok: true, status: 200, headers: {}, body: { id: 1 }, attempts: 1 };
    const pay = ok(
      (
        await run([charge], { order: { id: 'o1' } }, async (s) => {
          const seq = (await s.mustGet('p')).snapshot.scope.waits[0]!.seq;
          expect(await s.fireCall('p', seq, 'charged', outcome)).toBe(true);
        })
      )('pay'),
    );
    const visit = pay.visits[0]!;
    expect(visit.trigger).toMatchObject({ id: 'charged', kind: 'call' });
    expect(visit.outcome).toEqual(text(JSON.stringify(outcome)));
    expect(visit.reads).toEqual([{ path: 'order.id', by: ['call charged'], value: text('"o1"') }]);
  });

  it('rule: a huge value is cut, and says it is', async () => {
    const big = 'x'.repeat(VALUE_TEXT * 2);
    const copy = flow({
      id: 'copy',
      nodes: [start(), work('w', { b: 'a' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const w = ok((await run([copy], { a: big }))('w'));
    const read = w.visits[0]!.reads[0]!.value!;
    expect(read.cut).toBe(true);
    expect(read.text).toHaveLength(VALUE_TEXT + 1);
    expect(read.text.endsWith('…')).toBe(true);
  });

  it('rule: without the context the process started on, values are not guessed, and why is said', () => {
    const journal: JournalEntry[] = [
      { type: 'started', flow: 'loop', contextId: 'c', process: 'p', at: T0 },
      {
        type: 'context-written',
        node: 'count',
        writes: [{ path: 'n', value: 1 }],
        process: 'p',
        at: T0,
      },
      { type: 'ran', node: 'count', gen: [0], process: 'p', at: T0 },
    ];
    const v = ok(
      nodeVisits({
        journal,
        changes: [],
        flows: new Map([['loop', loop]]),
        flow: 'loop',
        node: 'count',
      }),
    );
    expect(v.valuesProblem).toMatch(/does not hold the context this process started on/);
    expect(v.visits[0]!.writes).toEqual([{ path: 'n', before: null, after: text('1') }]);
    expect(v.visits[0]!.reads[0]!.value).toBeNull();
  });
});

describe('a node visited 10,000 times', () => {
  it('rule: the answer holds the newest VISITS_SHOWN visits, valued, and the count of them all', () => {
    const passes = 10_000;
    const journal: JournalEntry[] = [
      {
        type: 'started',
        flow: 'loop',
        contextId: 'c',
        process: 'p',
        at: T0,
        context: { version: 0, value: { n: 0 } },
      },
    ];
    const changes = [];
    for (let i = 0; i < passes; i++) {
      const at = T0 + i * HOUR;
      const writes = [{ path: 'n', value: i + 1 }];
      journal.push({ type: 'context-written', node: 'count', writes, process: 'p', at });
      journal.push({ type: 'ran', node: 'count', gen: [i], process: 'p', at });
      changes.push({ contextId: 'c', version: i + 1, process: 'p', node: 'count', writes, at });
    }
    const v = ok(
      nodeVisits({
        journal,
        changes,
        flows: new Map([['loop', loop]]),
        flow: 'loop',
        node: 'count',
      }),
    );
    expect(v.total).toBe(passes);
    expect(v.visits).toHaveLength(VISITS_SHOWN);
    const last = v.visits[VISITS_SHOWN - 1]!;
    expect(last).toMatchObject({ number: passes, gen: [passes - 1] });
    expect(last.writes).toEqual([
      { path: 'n', before: text(String(passes - 1)), after: text(String(passes)) },
    ]);
    // However many a page asks for (a hostile or a mistaken limit), no more are detailed.
    const input = {
      journal,
      changes,
      flows: new Map([['loop', loop]]),
      flow: 'loop',
      node: 'count',
    };
    expect(ok(nodeVisits({ ...input, limit: 1e9 })).visits).toHaveLength(VISITS_SHOWN);
    expect(ok(nodeVisits({ ...input, limit: -5 })).visits).toHaveLength(1);
  });
});

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
import type { ScenarioStep } from '../report/scenario.ts';
import {
  processOf as proc,
  runScenario as run,
  SCENARIO_START as clock,
} from './fixtures/scenarioRuns.ts';
import { simulate } from './simulate.ts';

/**
 * The rules of docs/format.md that issue 14 found broken, each as a scenario run by `flow simulate`'s
 * own code (the real supervisor and engine on a virtual clock). Each test is named after its rule.
 */

/** A work node that appends `mark` to the context's `log`. */
const mark = (id: string, letter = id) => work(id, { log: `log & "${letter}"` });

describe('rule 1: on resume, every timer that fell due while the process was stopped fires at once, once', () => {
  // Three waits at once: two at the top (PT2H, PT1H) and one inside a sub-flow (PT30M).
  const inner = flow({
    id: 'inner',
    nodes: [start(), wait('w', [{ id: 't', timer: 'PT30M' }]), mark('c'), end()],
    edges: chain('start', 'w', 'c', 'end'),
  });
  const main = flow({
    id: 'main',
    nodes: [
      start(),
      fanout('split'),
      wait('slow', [{ id: 't', timer: 'PT2H' }]),
      mark('b'),
      wait('fast', [{ id: 't', timer: 'PT1H' }]),
      mark('a'),
      subflow('sub', 'inner'),
    ],
    edges: [
      ...chain('start', 'split'),
      ...chain('split', 'slow', 'b'),
      ...chain('split', 'fast', 'a'),
      edge('split', 'sub'),
    ],
  });

  it('fires each overdue timer, nested ones too, in order of due time, each once', async () => {
    const report = await run(
      [main, inner],
      [
        { start: 'main', as: 'p', context: { log: '' } },
        { stop: 'p' },
        { advance: 'PT5H' },
        { resume: 'p' },
      ],
    );
    expect(report.errors).toEqual([]);
    const p = proc(report, 'p');
    // Due 00:30 (sub/w), 01:00 (fast), 02:00 (slow): fired in that order, once each.
    expect(p.context).toEqual({ log: 'cab' });
    expect(p.visits).toMatchObject({ fast: 1, slow: 1, 'sub/w': 1, a: 1, b: 1, 'sub/c': 1 });
    expect(p.status).toBe('done');
    expect(p.waits).toEqual([]);
  });
});

describe('rule 2: a timer that fell due while the process was failed or flow-changed fires as soon as it can run', () => {
  it('after retry, a timer that fell due while the process was failed fires at once', async () => {
    // The wait is reached first; then "risky" fails on x. Two hours later x is fixed and retried.
    const f = flow({
      id: 'f',
      nodes: [
        start(),
        fanout('split'),
        wait('sleep', [{ id: 't', timer: 'PT1H' }]),
        mark('late'),
        work('risky', { y: '$number(x)' }),
      ],
      edges: [
        ...chain('start', 'split'),
        ...chain('split', 'sleep', 'late'),
        edge('split', 'risky'),
      ],
    });
    const report = await run(
      [f],
      [
        { start: 'f', as: 'p', context: { log: '', x: 'no' } },
        { advance: 'PT2H' },
        { setContext: 'p', path: 'x', value: '5' },
        { retry: 'p' },
      ],
    );
    expect(report.errors).toEqual([]);
    const p = proc(report, 'p');
    expect(p.status).toBe('done');
    expect(p.context).toEqual({ log: 'late', x: '5', y: 5 });
    expect(p.waits).toEqual([]);
  });

  // One branch waits for an event, the other for an hour; the flow changes under both.
  const twoWaits = (aValue: string) =>
    flow({
      id: 'two',
      nodes: [
        start(),
        fanout('split'),
        wait('ev', [{ id: 'go', event: 'go' }]),
        work('a', { a: aValue }),
        wait('sleep', [{ id: 't', timer: 'PT1H' }]),
        mark('late'),
      ],
      edges: [
        ...chain('start', 'split'),
        ...chain('split', 'ev', 'a'),
        ...chain('split', 'sleep', 'late'),
      ],
    });

  for (const choice of ['continue', 'keep'] as const) {
    it(`after ${choice}, a timer that fell due while the process was flow-changed fires at once`, async () => {
      const report = await run(
        [twoWaits('1')],
        [
          { start: 'two', as: 'p', context: { log: '' } },
          { replaceFlow: twoWaits('2') },
          { event: 'go' },
          { advance: 'PT2H' },
          { resolve: 'p', choice },
        ],
      );
      expect(report.errors).toEqual([]);
      const p = proc(report, 'p');
      expect(p.status).toBe('done');
      expect(p.context).toEqual({ log: 'late', a: choice === 'continue' ? 2 : 1 });
    });
  }
});

describe('rule 3: a timer due at or before the clock fires now, so a PT0S timer fires at once', () => {
  it('a PT0S loop runs every pass without an advance, each pass a durable stop', async () => {
    const f = flow({
      id: 'zero',
      nodes: [
        start(),
        work('tick', { count: 'count + 1' }),
        wait('sleep', [{ id: 'now', timer: 'PT0S' }]),
        end(),
      ],
      edges: [
        ...chain('start', 'tick', 'sleep'),
        edge('sleep', 'tick', { when: 'count < 5' }),
        edge('sleep', 'end', { when: 'count >= 5' }),
      ],
    });
    const report = await run([f], [{ start: 'zero', as: 'p', context: { count: 0 } }]);
    expect(report.errors).toEqual([]);
    const p = proc(report, 'p');
    expect(p.status).toBe('done');
    expect(p.context).toEqual({ count: 5 });
    expect(p.passes).toEqual({ tick: 4 });
    expect(p.visits).toMatchObject({ tick: 5, sleep: 5 });
    expect(report.clock).toBe('2026-01-01T00:00:00.000Z');
  });
});

describe('rule 4: an event goes to every wait for its name, and with continue or keep every trigger that woke the process counts', () => {
  const both = (bValue: string) =>
    flow({
      id: 'both',
      nodes: [
        start(),
        fanout('split'),
        wait('wa', [{ id: 'go', event: 'go', into: 'ga' }]),
        work('a', { a: '1' }),
        wait('wb', [{ id: 'go', event: 'go', into: 'gb' }]),
        work('b', { b: bValue }),
      ],
      edges: [
        ...chain('start', 'split'),
        ...chain('split', 'wa', 'a'),
        ...chain('split', 'wb', 'b'),
      ],
    });

  it('on an unchanged flow, both waits take the event', async () => {
    const report = await run(
      [both('1')],
      [
        { start: 'both', as: 'p' },
        { event: 'go', payload: 7 },
      ],
    );
    const p = proc(report, 'p');
    expect(p.status).toBe('done');
    expect(p.context).toEqual({ ga: 7, a: 1, gb: 7, b: 1 });
  });

  for (const choice of ['continue', 'keep'] as const) {
    it(`on a changed flow, both triggers are kept and both count after ${choice}`, async () => {
      const changed = await run(
        [both('1')],
        [{ start: 'both', as: 'p' }, { replaceFlow: both('2') }, { event: 'go', payload: 7 }],
      );
      const waiting = proc(changed, 'p');
      expect(waiting.status).toBe('flow-changed');
      // Both waits' trigger fired: neither is still waited for.
      expect(waiting.waits).toEqual([]);

      const report = await run(
        [both('1')],
        [
          { start: 'both', as: 'p' },
          { replaceFlow: both('2') },
          { event: 'go', payload: 7 },
          { resolve: 'p', choice },
        ],
      );
      expect(report.errors).toEqual([]);
      const p = proc(report, 'p');
      expect(p.status).toBe('done');
      expect(p.visits).toMatchObject({ wa: 1, wb: 1, a: 1, b: 1 });
      expect(p.context).toEqual({ ga: 7, a: 1, gb: 7, b: choice === 'continue' ? 2 : 1 });
    });
  }
});

describe('rule 8: the report lists only waits that something could still fire', () => {
  const f = (v: string) =>
    flow({
      id: 'f',
      nodes: [
        start(),
        fanout('split'),
        wait('ev', [{ id: 'go', event: 'go' }]),
        work('a', { a: v }),
        wait('sleep', [{ id: 't', timer: 'PT1H' }]),
      ],
      edges: [...chain('start', 'split'), ...chain('split', 'ev', 'a'), edge('split', 'sleep')],
    });
  const steps: ScenarioStep[] = [{ start: 'f', as: 'p' }, { replaceFlow: f('2') }, { event: 'go' }];

  it('a flow-changed process lists the waits still live, not the one whose trigger fired', async () => {
    const report = await run([f('1')], steps);
    const p = proc(report, 'p');
    expect(p.status).toBe('flow-changed');
    expect(p.waits).toEqual([{ node: 'sleep', triggers: ['t'], due: '2026-01-01T01:00:00.000Z' }]);
  });

  it('a cancelled process lists no waits', async () => {
    const report = await run([f('1')], [...steps, { resolve: 'p', choice: 'cancel' }]);
    const p = proc(report, 'p');
    expect(p.status).toBe('cancelled');
    expect(p.waits).toEqual([]);
  });
});

describe('rule 5: expressions are deterministic, in flow simulate too', () => {
  const f = flow({
    id: 'f',
    nodes: [
      start(),
      wait('sleep', [{ id: 't', timer: 'PT90M' }]),
      work('w', { at: '$now()', ms: '$millis()', r: '$random()' }),
      end(),
    ],
    edges: chain('start', 'sleep', 'w', 'end'),
  });
  const steps: ScenarioStep[] = [{ start: 'f', as: 'p' }, { advance: 'PT2H' }];

  it('$now() and $millis() give the virtual time of the step; $random() repeats run after run', async () => {
    const first = proc(await run([f], steps), 'p');
    const again = proc(await run([f], steps), 'p');
    expect(first.context).toMatchObject({
      at: '2026-01-01T01:30:00.000Z',
      ms: Date.parse('2026-01-01T01:30:00.000Z'),
    });
    expect(again.context).toEqual(first.context);
  });
});

describe('rule 6: the guardrails stop a string over the value limit before V8 does', () => {
  // 2^27 characters: $length and $substring copy a string into an array of its characters, and
  // an array that long ends Node natively ("Fatal JavaScript invalid size error").
  const huge = '$pad("", 134217728, "x")';
  for (const expr of [`$length(${huge})`, `$substring(${huge}, 5, 3)`]) {
    it(`${expr.split('(')[0]} of a 2^27-character string fails its node with a message`, async () => {
      const f = flow({
        id: 'f',
        nodes: [start(), work('w', { n: expr }), end()],
        edges: chain('start', 'w', 'end'),
      });
      const p = proc(await run([f], [{ start: 'f', as: 'p' }]), 'p');
      expect(p.status).toBe('failed');
      expect(p.error).toBe(
        'node "w": set "n": built a string of 134,217,728 characters; a value holds at most 1,000,000',
      );
      expect(p.context).toEqual({});
    });
  }

  it('a string doubled past the limit fails at the step that passes it, and so does an array', async () => {
    const doubling = `($s := "${'x'.repeat(1024)}"; ${'$s := $s & $s; '.repeat(10)}$length($s))`;
    const f = flow({
      id: 'f',
      nodes: [start(), work('w', { n: doubling })],
      edges: chain('start', 'w'),
    });
    const p = proc(await run([f], [{ start: 'f', as: 'p' }]), 'p');
    expect(p.error).toMatch(/built a string of 1,048,576 characters/);
    const g = flow({
      id: 'g',
      nodes: [start(), work('v', { a: '$split($pad("", 900000, "x"), "")' })],
      edges: chain('start', 'v'),
    });
    const q = proc(await run([g], [{ start: 'g', as: 'q' }]), 'q');
    expect(q.error).toMatch(/built an array of 900,000 items; a value holds at most 500,000/);
  });
});

describe('rule 7: a flow that multiplies its branches fails at a bound on live branches', () => {
  // A sub-flow that calls its own flow twice: each pass doubles what is running.
  const twice = flow({
    id: 'twice',
    nodes: [start(), fanout('split'), subflow('a', 'twice'), subflow('b', 'twice')],
    edges: [...chain('start', 'split'), edge('split', 'a'), edge('split', 'b')],
  });
  // Fan-outs into fan-outs: every node of a layer leads to every node of the next, 12 wide.
  const layers = 6;
  const ids = (l: number) => Array.from({ length: 12 }, (_, i) => `n${l}_${i}`);
  const lattice = flow({
    id: 'lattice',
    nodes: [
      start(),
      ...Array.from({ length: layers }, (_, l) => ids(l).map((id) => work(id))).flat(),
    ],
    edges: Array.from({ length: layers }, (_, l) =>
      (l === 0 ? ['start'] : ids(l - 1)).flatMap((from) => ids(l).map((to) => edge(from, to))),
    ).flat(),
  });

  for (const f of [twice, lattice]) {
    it(`${f.id}, at the default bound of 10,000: the process fails, naming the bound`, async () => {
      const report = await simulate({ flows: [f], clock, steps: [{ start: f.id, as: 'p' }] });
      const p = proc(report, 'p');
      expect(p.status).toBe('failed');
      expect(p.error).toMatch(
        /more than 10,000 live branches \(nodes ready, waits and running sub-flows\)/,
      );
    }, 60_000);

    it(`${f.id}: the process fails with a message naming the bound, nothing left running`, async () => {
      const report = await simulate(
        { flows: [f], clock, steps: [{ start: f.id, as: 'p' }] },
        undefined,
        { maxLiveBranches: 40 },
      );
      const p = proc(report, 'p');
      expect(p.status).toBe('failed');
      expect(p.error).toMatch(
        /more than 40 live branches \(nodes ready, waits and running sub-flows\)/,
      );
    });
  }
});

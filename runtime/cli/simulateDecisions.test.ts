import { describe, expect, it } from 'vitest';
import {
  chain,
  edge,
  end,
  fanout,
  flow,
  join,
  start,
  wait,
  work,
} from '../../shared/fixtures/flows.ts';
import { parseScenario, type ScenarioStep } from '../report/scenario.ts';
import { processOf as proc, runScenario as run } from './fixtures/scenarioRuns.ts';

/**
 * The choices docs/decisions.md records where docs/format.md left room, each run as a scenario on the
 * real supervisor and engine (issue 14), each test named after its decision.
 */

describe('decision: a `when` that yields a function is false, by $boolean rules', () => {
  it('the edge is not taken, and nothing fails', async () => {
    const f = flow({
      id: 'f',
      nodes: [start(), work('a', { went: '"a"' }), work('b', { went: '"b"' })],
      edges: [edge('start', 'a', { when: '$uppercase' }), edge('start', 'b', { when: 'true' })],
    });
    const p = proc(await run([f], [{ start: 'f', as: 'p' }]), 'p');
    expect(p.status).toBe('done');
    expect(p.context).toEqual({ went: 'b' });
  });
});

describe('decision: a join naming a node that cannot reach it within a pass cannot start', () => {
  it('the start step is refused, naming the join and the node', async () => {
    const f = flow({
      id: 'f',
      nodes: [start(), work('h'), join('j', ['after']), wait('w'), work('after')],
      edges: [...chain('start', 'h', 'j', 'w'), edge('w', 'h'), edge('h', 'after')],
    });
    const report = await run([f], [{ start: 'f', as: 'p' }]);
    expect(report.processes).toEqual({});
    expect(report.errors).toEqual([
      {
        step: 0,
        error: expect.stringMatching(/node "j": depends on "after", which does not come before it/),
      },
    ]);
  });
});

// risky fails until x is a number; the flow then changes under the failed process.
const risky = (note: string) =>
  flow({
    id: 'risky',
    nodes: [start(), work('r', { y: '$number(x)', note }), end()],
    edges: chain('start', 'r', 'end'),
  });

describe('decision: retry after the flow changed while the process was failed reports flow-changed first', () => {
  const steps: ScenarioStep[] = [
    { start: 'risky', as: 'p', context: { x: 'no' } },
    { replaceFlow: risky('"new"') },
    { setContext: 'p', path: 'x', value: '4' },
    { retry: 'p' },
  ];

  it('retry makes it flow-changed, with the failed node not run again', async () => {
    const p = proc(await run([risky('"old"')], steps), 'p');
    expect(p.status).toBe('flow-changed');
    expect(p.changes).toContainEqual({ flow: 'risky', item: 'node', id: 'r', change: 'changed' });
    expect(p.context).toEqual({ x: '4' });
  });

  it('continue then runs the failed node on the new flow; keep, on the old', async () => {
    for (const [choice, note] of [
      ['continue', 'new'],
      ['keep', 'old'],
    ] as const) {
      const p = proc(await run([risky('"old"')], [...steps, { resolve: 'p', choice }]), 'p');
      expect(p.status).toBe('done');
      expect(p.context).toEqual({ x: '4', y: 4, note });
    }
  });
});

describe('decision: stop of a flow-changed process is refused; the designer chooses first', () => {
  it('the stop step is an error and the process stays flow-changed', async () => {
    const f = (v: string) =>
      flow({
        id: 'f',
        nodes: [start(), wait('w'), work('a', { v }), end()],
        edges: chain('start', 'w', 'a', 'end'),
      });
    const report = await run(
      [f('1')],
      [{ start: 'f', as: 'p' }, { replaceFlow: f('2') }, { advance: 'PT1H' }, { stop: 'p' }],
    );
    expect(report.errors).toEqual([
      {
        step: 3,
        error: 'process "p" is flow-changed; only a running or waiting process can be stopped',
      },
    ]);
    expect(proc(report, 'p').status).toBe('flow-changed');
  });
});

describe('decision: an event with `into` and no payload removes that path, as a set that yields nothing', () => {
  it('the path is gone from the context, and the trigger fired', async () => {
    const f = flow({
      id: 'f',
      nodes: [start(), wait('w', [{ id: 'go', event: 'go', into: 'got' }]), end()],
      edges: chain('start', 'w', 'end'),
    });
    const p = proc(
      await run([f], [{ start: 'f', as: 'p', context: { got: 'old', keep: 1 } }, { event: 'go' }]),
      'p',
    );
    expect(p.status).toBe('done');
    expect(p.context).toEqual({ keep: 1 });
  });
});

describe('decision: a malformed step refuses the whole scenario file, naming the step', () => {
  it('nothing runs; each malformed step is named by its index and field', () => {
    const text = JSON.stringify({
      format: 'scenario/1',
      flows: [],
      clock: '2026-01-01T00:00:00Z',
      steps: [{ advance: 'PT1H' }, { start: 5, as: 'p' }, { stop: 'p', extra: true }],
    });
    const parsed = parseScenario(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual([
      expect.stringMatching(/^steps\[1\]\.start: /),
      expect.stringMatching(/^steps\[2\]: .*"extra"/),
    ]);
  });
});

describe('decision: a first context that is not an object is refused', () => {
  const f = flow({
    id: 'f',
    nodes: [start(), fanout('x'), end()],
    edges: chain('start', 'x', 'end'),
  });
  for (const [context, what] of [
    [5, 'a number'],
    [[1, 2], 'an array'],
    ['text', 'a string'],
    [null, 'null'],
  ] as const) {
    it(`a start with ${what} as its context is a step error, and no process is made`, async () => {
      const report = await run([f], [{ start: 'f', as: 'p', context }]);
      expect(report.processes).toEqual({});
      expect(report.errors).toEqual([
        { step: 0, error: `a context is a JSON object, such as { "count": 0 }; got ${what}` },
      ]);
    });
  }
});

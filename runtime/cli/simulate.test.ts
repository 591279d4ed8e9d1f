import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chain,
  edge,
  end,
  flow,
  join,
  start,
  text,
  wait,
  work,
} from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { runCli } from './runCli.ts';
import { parseScenario, type Scenario, type ScenarioStep } from '../report/scenario.ts';
import { simulate } from './simulate.ts';
import { processOf as proc } from './fixtures/scenarioRuns.ts';

const examples = fileURLToPath(new URL('../../examples/', import.meta.url));

/** Reads and parses an example scenario; a file that does not parse fails the test here. */
async function example(name: string): Promise<Scenario> {
  const parsed = parseScenario(await readFile(joinPath(examples, 'scenarios', name), 'utf8'));
  if (!parsed.ok) throw new Error(`${name} does not parse:\n${parsed.errors.join('\n')}`);
  return parsed.scenario;
}

/** The same scenario, run only up to (not including) step `count`. */
const firstSteps = (scenario: Scenario, count: number): Scenario => ({
  ...scenario,
  steps: scenario.steps.slice(0, count),
});

describe('examples/scenarios/nightly-refresh.scenario.json', () => {
  // Worked by hand from docs/format.md#flows and #scenarios (and shared/examples/README.md):
  // - start at 2026-01-01T00:00: read (prices.read 1), split, a, b (the sub-flow "enrich": its
  //   step sets enriched = $count([1, 2]) + 1 = 3), the join both, then asleep at sleep from
  //   00:00, its daily timer due 2026-01-02T00:00.
  // - advance PT24H: "a timer due exactly at the end of the advance fires": daily fires,
  //   prices.read 1 < 7 takes the closing edge e8 (passes.read 1), read 2, asleep again from
  //   01-02T00:00.
  // - event prices.changed at 01-02T00:00: kick fires, its payload goes into lastChange, read 3
  //   (passes 2), asleep from 01-02T00:00, due 01-03T00:00.
  // - advance P7D to 01-09T00:00: daily fires on 01-03 (read 4), 01-04 (5), 01-05 (6), 01-06 (7,
  //   passes 6); on 01-07 prices.read is 7: only e9 is taken, to done, and the process is done.
  // So read, split, a, b, b/step and both ran 7 times, sleep completed 7 times (5 + 1 + 1 fires).
  it('ends done after 7 reads and 6 passes, with the event payload in lastChange', async () => {
    const report = await simulate(await example('nightly-refresh.scenario.json'));
    expect(report.errors).toEqual([]);
    expect(report.clock).toBe('2026-01-09T00:00:00.000Z');
    expect(Object.keys(report.processes)).toEqual(['p1']);
    const p1 = proc(report, 'p1');
    expect(p1.status).toBe('done');
    expect(p1.waits).toEqual([]);
    expect(p1.error).toBeNull();
    expect(p1.passes).toEqual({ read: 6 });
    expect(p1.visits).toEqual({
      start: 1,
      read: 7,
      split: 7,
      a: 7,
      b: 7,
      'b/start': 7,
      'b/step': 7,
      'b/end': 7,
      both: 7,
      sleep: 7,
      done: 1,
    });
    expect(p1.context).toEqual({
      prices: { read: 7, history: [1, 2], stale: false },
      checked: true,
      enriched: 3,
      lastChange: { by: 'feed' },
    });
  });

  it('after the first day, waits at sleep for both triggers, the timer due a day after it slept', async () => {
    // Steps 0 and 1 only: one pass (read 2), asleep since 01-02T00:00, daily due 01-03T00:00.
    const report = await simulate(firstSteps(await example('nightly-refresh.scenario.json'), 2));
    const p1 = proc(report, 'p1');
    expect(p1.status).toBe('waiting');
    expect(p1.waits).toEqual([
      { node: 'sleep', triggers: ['daily', 'kick'], due: '2026-01-03T00:00:00.000Z' },
    ]);
    expect(p1.passes).toEqual({ read: 1 });
    expect(p1.visits.read).toBe(2);
    expect(p1.context).not.toHaveProperty('lastChange');
  });
});

describe('examples/scenarios/order-approval.scenario.json', () => {
  // Three orders of examples/order-approval.flow.json from 2026-03-02T09:00. place sets status
  // "placed" and total = $sum(lines.(price * qty)); await waits for the human "decide" or the
  // 48-hour "timeout", whichever fires first (docs/format.md#nodes, continue-after).
  // - step 3 gives "approved" input without "note": input that lacks a field is a step error
  //   (§3) and changes nothing; step 4 approves it: e3 (trigger decide, approval.approved) → ship.
  // - step 5 advances a day: nothing is due yet (the timers are due 03-04T09:00).
  // - step 6 rejects: e4 → reject, which copies approval.note into order.reason.
  // - step 7 advances to 03-04T09:00, the due time exactly: the timeout of "expired" fires, e5 →
  //   expire.
  // Each branch ends at done: every process is done, nothing waits.
  it('ships the approved order, rejects the rejected one, expires the third', async () => {
    const report = await simulate(await example('order-approval.scenario.json'));
    expect(report.clock).toBe('2026-03-04T09:00:00.000Z');
    expect(report.errors).toEqual([{ step: 3, error: expect.stringContaining('"note"') }]);
    for (const id of ['approved', 'rejected', 'expired']) {
      expect(proc(report, id).status).toBe('done');
      expect(proc(report, id).waits).toEqual([]);
      expect(proc(report, id).passes).toEqual({});
    }
    const common = { start: 1, place: 1, await: 1, done: 1 };
    expect(proc(report, 'approved').visits).toEqual({ ...common, ship: 1 });
    expect(proc(report, 'rejected').visits).toEqual({ ...common, reject: 1 });
    expect(proc(report, 'expired').visits).toEqual({ ...common, expire: 1 });

    // 2.5 × 4 + 5 × 2 = 20.
    expect(proc(report, 'approved').context).toMatchObject({
      order: { id: 'A-100', status: 'shipped', total: 20 },
      approval: { approved: true, note: 'Ships tomorrow' },
    });
    expect(proc(report, 'rejected').context).toMatchObject({
      order: { id: 'A-101', status: 'rejected', total: 400, reason: 'Over budget' },
      approval: { approved: false, note: 'Over budget' },
    });
    const expired = proc(report, 'expired').context;
    expect(expired).toMatchObject({ order: { id: 'A-102', status: 'expired', total: 30 } });
    // Nobody answered: nothing was written into "approval".
    expect(expired).not.toHaveProperty('approval');
  });

  it('the invalid human step changes nothing: the order still waits, with no approval', async () => {
    // Steps 0–3: the three orders are placed and asleep; step 3 is refused.
    const report = await simulate(firstSteps(await example('order-approval.scenario.json'), 4));
    expect(report.errors.map((e) => e.step)).toEqual([3]);
    const approved = proc(report, 'approved');
    expect(approved.status).toBe('waiting');
    expect(approved.visits).toEqual({ start: 1, place: 1 });
    expect(approved.context).not.toHaveProperty('approval');
    expect(approved.context).toMatchObject({ order: { status: 'placed' } });
  });

  it('a day in, the two open orders wait for a person or the timeout due 48 hours after they slept', async () => {
    // Steps 0–5: "approved" is done; the two others slept at 03-02T09:00, timeout PT48H.
    const report = await simulate(firstSteps(await example('order-approval.scenario.json'), 6));
    expect(report.clock).toBe('2026-03-03T09:00:00.000Z');
    expect(proc(report, 'approved').status).toBe('done');
    for (const id of ['rejected', 'expired']) {
      expect(proc(report, id).status).toBe('waiting');
      expect(proc(report, id).waits).toEqual([
        { node: 'await', triggers: ['decide', 'timeout'], due: '2026-03-04T09:00:00.000Z' },
      ]);
    }
  });
});

describe('examples/scenarios/onboarding.scenario.json', () => {
  // examples/nested-subflow.flows.json: onboarding → checks (sub-flow) → review (sub-flow) whose
  // ask waits for a human. "owner" starts on a new context; "auditor" binds to the same live
  // context (shareContextWith, §3). Both stop at checks/review/ask, a wait with no timer
  // (due null). setContext writes account.plan into that one context. auditor is stopped; owner
  // is answered by path (approved: true): record, then welcome sets account.state to "active".
  // auditor is resumed and answered (approved: false): the context is live, so its welcome reads
  // the new review and sets "closed", which is what both processes see at the end.
  const nestedVisits = {
    start: 1,
    prepare: 1,
    checks: 1,
    'checks/start': 1,
    'checks/identity': 1,
    'checks/end': 1,
    'checks/review': 1,
    'checks/review/start': 1,
    'checks/review/ask': 1,
    'checks/review/record': 1,
    'checks/review/end': 1,
    welcome: 1,
    done: 1,
  };

  it('runs both processes through the nested review on one shared context', async () => {
    const report = await simulate(await example('onboarding.scenario.json'));
    expect(report.errors).toEqual([]);
    expect(Object.keys(report.processes).sort()).toEqual(['auditor', 'owner']);
    const shared = {
      account: {
        name: 'Ada',
        state: 'closed',
        identityChecked: true,
        plan: 'team',
        reviewed: true,
      },
      review: { approved: false },
    };
    for (const id of ['owner', 'auditor']) {
      const p = proc(report, id);
      expect(p.flow).toBe('onboarding');
      expect(p.status).toBe('done');
      expect(p.waits).toEqual([]);
      expect(p.passes).toEqual({});
      expect(p.visits).toEqual(nestedVisits);
      expect(p.context).toEqual(shared);
    }
  });

  it('before any answer, both wait at the nested path with no timer and see the setContext write', async () => {
    const report = await simulate(firstSteps(await example('onboarding.scenario.json'), 3));
    for (const id of ['owner', 'auditor']) {
      const p = proc(report, id);
      expect(p.status).toBe('waiting');
      expect(p.waits).toEqual([{ node: 'checks/review/ask', triggers: ['answer'], due: null }]);
      expect(p.visits).toEqual({
        start: 1,
        prepare: 1,
        'checks/start': 1,
        'checks/identity': 1,
        'checks/review/start': 1,
      });
      expect(p.context).toEqual({
        account: { name: 'Ada', state: 'pending', identityChecked: true, plan: 'team' },
      });
    }
  });

  it('while auditor is stopped, owner finishes and welcome reads the approval as active', async () => {
    const report = await simulate(firstSteps(await example('onboarding.scenario.json'), 5));
    expect(proc(report, 'auditor').status).toBe('stopped');
    expect(proc(report, 'auditor').visits).not.toHaveProperty('checks/review/ask');
    expect(proc(report, 'owner').status).toBe('done');
    expect(proc(report, 'owner').visits).toEqual(nestedVisits);
    expect(proc(report, 'owner').context).toMatchObject({
      account: { state: 'active', reviewed: true },
      review: { approved: true },
    });
  });
});

describe('stop and resume (docs/format.md#statuses)', () => {
  // tick counts, then sleep waits an hour or for "poke"; the loop goes back to tick.
  const ticker = flow({
    id: 'ticker',
    nodes: [
      start(),
      work('tick', { count: 'count + 1' }),
      wait('sleep', [
        { id: 'hour', timer: 'PT1H' },
        { id: 'poke', event: 'poke', into: 'poked' },
      ]),
    ],
    edges: [...chain('start', 'tick', 'sleep'), edge('sleep', 'tick')],
  });

  it('a timer that fell due while stopped fires at once, once; an event sent meanwhile is not kept', async () => {
    // Stopped at 00:00 with the timer due 01:00; five hours go by, a poke is sent (dropped: "events
    // sent while it is stopped are not kept"). On resume at 05:00 the overdue timer fires once:
    // count 2, one pass; sleep is entered again at 05:00, due 06:00.
    const report = await simulate({
      flows: [ticker],
      clock: Date.parse('2026-01-01T00:00:00Z'),
      steps: [
        { start: 'ticker', as: 't', context: { count: 0 } },
        { stop: 't' },
        { advance: 'PT5H' },
        { event: 'poke', payload: 1 },
        { resume: 't' },
      ],
    });
    expect(report.errors).toEqual([]);
    const t = proc(report, 't');
    expect(t.status).toBe('waiting');
    expect(t.context).toEqual({ count: 2 });
    expect(t.passes).toEqual({ tick: 1 });
    expect(t.visits).toMatchObject({ tick: 2, sleep: 1 });
    expect(t.waits).toEqual([
      { node: 'sleep', triggers: ['hour', 'poke'], due: '2026-01-01T06:00:00.000Z' },
    ]);
  });
});

describe('broken scenario files through runCli', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(joinPath(tmpdir(), 'wakeflow-simulate-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const scenarioText = (parts: Record<string, unknown>) =>
    text({
      format: 'scenario/1',
      flows: [flow({ id: 'f', nodes: [start(), end()], edges: chain('start', 'end') })],
      clock: '2026-01-01T00:00:00Z',
      steps: [],
      ...parts,
    });

  /** Runs `simulate` on a file with this content: exit 1, nothing on stdout, no stack trace. */
  async function refused(name: string, content: string): Promise<string[]> {
    const path = joinPath(dir, name);
    await writeFile(path, content, 'utf8');
    const result = await runCli(['simulate', path]);
    expect(result.code).toBe(1);
    expect(result.out).toEqual([]);
    expect(result.err.length).toBeGreaterThan(0);
    for (const line of result.err) {
      expect(line).not.toMatch(/^\s+at /m);
      expect(line).not.toMatch(/internal error/);
    }
    return result.err;
  }

  it('refuses text that is not JSON, saying where', async () => {
    // `{ "format": ` is 12 characters: the bare word starts in column 13.
    expect(await refused('not-json.json', '{ "format": nope }')).toEqual([
      'line 1, column 13: unexpected token',
    ]);
  });

  it('refuses JSON of another format, naming the format field first', async () => {
    const err = await refused(
      'flow.json',
      text(flow({ id: 'f', nodes: [start(), end()], edges: chain('start', 'end') })),
    );
    expect(err[0]).toMatch(/^format: .*"scenario\/1"/);
  });

  it('refuses a step that is not a step, naming its index and the steps there are', async () => {
    const err = await refused(
      'not-a-step.json',
      scenarioText({ steps: [{ advance: 'PT1H' }, { advance: 'PT2H' }, { sleep: 'PT1H' }] }),
    );
    expect(err).toEqual([
      'steps[2]: not a step; a step is one of start, advance, event, human, setContext, replaceFlow, resolve, respond, stop, resume, retry',
    ]);
  });

  it('refuses a bad duration in advance, at its path', async () => {
    const err = await refused(
      'bad-duration.json',
      scenarioText({ steps: [{ advance: 'PT1H' }, { advance: '24 hours' }] }),
    );
    expect(err).toEqual(['steps[1].advance: must be an ISO-8601 duration such as PT24H']);
  });

  it('refuses a flow with a bad kind, at the path of that kind', async () => {
    const err = await refused(
      'bad-kind.json',
      scenarioText({
        flows: [
          {
            format: 'flow/1',
            id: 'f',
            nodes: [start(), { id: 'x', kind: 'wrok' }, end()],
            edges: [],
          },
        ],
      }),
    );
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^flows\[0\]\.nodes\[1\]\.kind: /);
  });
});

describe('step errors (docs/format.md#scenarios): reported with the step index, changing nothing', () => {
  // An order waiting for a person, with a 48-hour timeout (examples/order-approval.flow.json).
  const orderFlow = async (): Promise<Flow> =>
    JSON.parse(await readFile(joinPath(examples, 'order-approval.flow.json'), 'utf8')) as Flow;
  // Well formed, but it cannot run: a join with empty depends (docs/format.md#errors).
  const broken = flow({
    id: 'broken',
    nodes: [start(), join('j', []), end()],
    edges: chain('start', 'j', 'end'),
  });
  const clock = Date.parse('2026-01-01T00:00:00Z');
  const context = { order: { lines: [{ price: 10, qty: 2 }] } };

  it('every kind of refused step lands in errors and the report is as if it had not been there', async () => {
    const flows = [await orderFlow(), broken];
    const bad: [ScenarioStep, RegExp][] = [
      // An unknown process.
      [{ human: 'ghost', node: 'await', input: { approved: true, note: '' } }, /"ghost"/],
      // A node that is not waiting for a human: place is a work node that already ran.
      [{ human: 'o1', node: 'place', input: { approved: true, note: '' } }, /not waiting.*"place"/],
      // Input that lacks a field.
      [{ human: 'o1', node: 'await', input: { approved: true } }, /lacks.*"note"/],
      // Input with a field the trigger does not declare.
      [{ human: 'o1', node: 'await', input: { approved: true, note: '', rush: true } }, /"rush"/],
      // A value of the wrong type.
      [{ human: 'o1', node: 'await', input: { approved: 'yes', note: '' } }, /"approved".*boolean/],
      // A resolve that is refused: o1 is waiting, its flow did not change.
      [{ resolve: 'o1', choice: 'continue' }, /"o1"/],
      // A flow that cannot run.
      [{ start: 'broken', as: 'b1' }, /"broken".*depends/],
      // A flow that does not exist.
      [{ start: 'nowhere', as: 'n1' }, /"nowhere"/],
    ];
    const before: ScenarioStep[] = [{ start: 'order-approval', as: 'o1', context }];
    const after: ScenarioStep[] = [{ advance: 'PT1H' }];

    const clean = await simulate({ flows, clock, steps: [...before, ...after] });
    const report = await simulate({
      flows,
      clock,
      steps: [...before, ...bad.map(([s]) => s), ...after],
    });

    expect(report.errors.map((e) => e.step)).toEqual(bad.map((_, i) => i + before.length));
    report.errors.forEach((e, i) => expect(e.error).toMatch(bad[i]![1]));
    // Changes nothing: no process was created, o1 still waits as before with the same context.
    expect(clean.errors).toEqual([]);
    expect({ ...report, errors: [] }).toEqual(clean);
    expect(Object.keys(report.processes)).toEqual(['o1']);
    expect(proc(report, 'o1').status).toBe('waiting');
  });

  it('a continue that is refused because the node the process waits at is gone changes nothing', async () => {
    // Stopped, so no timer can wake it; the flow loses "await"; resume finds it flow-changed.
    // "continue ... refused with a clear error when a node the process stands on or waits at no
    // longer exists": the step is an error and the process stays flow-changed; cancel still works.
    const original = await orderFlow();
    const renamed = JSON.parse(JSON.stringify(original).replaceAll('"await"', '"approve"')) as Flow;
    const steps = (withContinue: boolean): ScenarioStep[] => [
      { start: 'order-approval', as: 'o1', context },
      { stop: 'o1' },
      { replaceFlow: renamed },
      { resume: 'o1' },
      ...(withContinue ? [{ resolve: 'o1', choice: 'continue' } as const] : []),
    ];
    const report = await simulate({ flows: [original], clock, steps: steps(true) });
    const clean = await simulate({ flows: [original], clock, steps: steps(false) });

    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]!.step).toBe(4);
    expect(report.errors[0]!.error).toMatch(/"await"/);
    expect({ ...report, errors: [] }).toEqual(clean);
    const o1 = proc(report, 'o1');
    expect(o1.status).toBe('flow-changed');
    expect(o1.changes).toContainEqual({
      flow: 'order-approval',
      item: 'node',
      id: 'await',
      change: 'removed',
    });

    const cancelled = await simulate({
      flows: [original],
      clock,
      steps: [...steps(true), { resolve: 'o1', choice: 'cancel' }],
    });
    expect(cancelled.errors.map((e) => e.step)).toEqual([4]);
    expect(proc(cancelled, 'o1').status).toBe('cancelled');
  });
});

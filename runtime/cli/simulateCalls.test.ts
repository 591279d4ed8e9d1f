import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  callWait,
  edge,
  end,
  flow,
  start,
  subflow,
  text,
  work,
} from '../../shared/fixtures/flows.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import type { Flow } from '../../shared/schema.ts';
import { parseScenario } from '../report/scenario.ts';
import { processOf } from './fixtures/scenarioRuns.ts';
import { simulateCommand } from './flowCommands.ts';
import { simulate } from './simulate.ts';

/**
 * `flow simulate` answers calls from the scenario (docs/format.md#scenarios): `responses` answer
 * attempts in order on the virtual clock, `respond` steps answer an attempt no response names,
 * nothing reaches the network, and the report lists each call's attempts and its next due time.
 */

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

/** start → pay (call "c" to a host that does not exist, deadline "late") → paid | late → end. */
function payFlow(deadline = 'PT1M', retry: Record<string, unknown> = {}): Flow {
  return flow({
    id: 'main',
    nodes: [
      start(),
      callWait(
        'pay',
        {
          method: 'POST',
          url: "'https://pay.invalid/charge'",
          body: "{ 'amount': 5 }",
          timeout: 'PT5S',
          retry: { max: 3, interval: 'PT1S', backoff: 2, on: [503, 'timeout'], ...retry },
        },
        [{ id: 'late', timer: deadline }],
      ),
      work('paid', { outcome: "'paid'" }),
      work('expired', { outcome: "'expired'" }),
      end(),
    ],
    edges: [
      edge('start', 'pay'),
      edge('pay', 'paid', { trigger: 'c' }),
      edge('pay', 'expired', { trigger: 'late' }),
      edge('paid', 'end'),
      edge('expired', 'end'),
    ],
  });
}

const scenarioText = (flows: Flow[], steps: unknown[], responses?: unknown[]) =>
  text({
    format: 'scenario/1',
    flows,
    clock: '2026-01-01T00:00:00Z',
    ...(responses ? { responses } : {}),
    steps,
  });

/** Parses the scenario as the command does and simulates it. */
async function run(flows: Flow[], steps: unknown[], responses?: unknown[]) {
  return simulate(parsed(flows, steps, responses));
}

function parsed(flows: Flow[], steps: unknown[], responses?: unknown[]) {
  const result = parseScenario(scenarioText(flows, steps, responses));
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.scenario;
}

const startP1 = { start: 'main', as: 'p1' };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('rule: responses answer the attempts of a call in order, with no network', () => {
  it('a 503 is retried after the interval, and the 200 that follows completes the call', async () => {
    // Attempt 1 at T0 gets 503 (retried: on has 503), attempt 2 due T0 + interval 1 s gets 200.
    const report = await run(
      [payFlow()],
      [startP1, { advance: 'PT10S' }],
      [
        { call: 'c', status: 503 },
        { call: 'pay', status: 200, body: { id: 'ch_1' } },
      ],
    );
    expect(report.errors).toEqual([]);
    const p1 = processOf(report, 'p1');
    expect(p1.status).toBe('done');
    expect(p1.context).toMatchObject({
      outcome: 'paid',
      res: { ok: true, status: 200, body: { id: 'ch_1' }, attempts: 2 },
    });
    expect(p1.calls).toEqual([
      {
        node: 'pay',
        trigger: 'c',
        attempts: [
          { attempt: 1, at: at(0), ms: 0, status: 503 },
          { attempt: 2, at: at(1000), ms: 0, status: 200 },
        ],
        next: null,
      },
    ]);
  });

  it('while a call waits between attempts, the report gives the next one’s due time', async () => {
    // Attempt 1 at T0: 503; attempt 2 after 1 s; attempt 2's 503 waits 1 s × backoff 2 = 2 s.
    const report = await run(
      [payFlow()],
      [startP1, { advance: 'PT1.5S' }],
      [{ call: 'c', status: 503 }],
    );
    const p1 = processOf(report, 'p1');
    expect(p1.status).toBe('waiting');
    expect(p1.calls?.[0]?.attempts.map((a) => [a.attempt, a.at, a.status])).toEqual([
      [1, at(0), 503],
      [2, at(1000), 503],
    ]);
    expect(p1.calls?.[0]?.next).toBe(at(3000));
  });

  it('a timeout answer fails the attempt at the call’s timeout; with no retry the outcome says so', async () => {
    const report = await run(
      [payFlow('PT1M', { on: [503] })],
      [startP1, { advance: 'PT10S' }],
      [{ call: 'c', error: 'timeout' }],
    );
    const p1 = processOf(report, 'p1');
    expect(p1.status).toBe('done');
    expect(p1.context).toMatchObject({
      outcome: 'paid',
      res: { ok: false, status: 0, error: 'timeout', attempts: 1 },
    });
    expect(p1.calls?.[0]?.attempts).toEqual([
      { attempt: 1, at: at(0), ms: 5000, status: 0, error: 'timeout' },
    ]);
  });

  it('an answer `after` PT2S loses to a PT1S deadline: the timer fires and the answer is dropped', async () => {
    const report = await run(
      [payFlow('PT1S')],
      [startP1, { advance: 'PT10S' }],
      [{ call: 'c', status: 200, after: 'PT2S' }],
    );
    const p1 = processOf(report, 'p1');
    expect(p1.status).toBe('done');
    expect(p1.context).toEqual({ outcome: 'expired' });
    expect(p1.visits.paid).toBeUndefined();
    // Sent at T0, never answered: the wait was gone at 1 s.
    expect(p1.calls?.[0]).toEqual({
      node: 'pay',
      trigger: 'c',
      attempts: [{ attempt: 1, at: at(0) }],
      next: null,
    });
  });

  it('the app’s batched advance on a store with a journal gives the same report', async () => {
    const scenario = parsed(
      [payFlow()],
      [startP1, { advance: 'PT1.5S' }, { advance: 'PT10S' }],
      [
        { call: 'c', status: 503 },
        { call: 'c', status: 503 },
        { call: 'c', status: 200 },
      ],
    );
    const own = await simulate(scenario);
    const batched = await simulate(scenario, new MemoryStore(), undefined, false);
    expect(batched).toEqual(own);
    expect(processOf(own, 'p1').calls?.[0]?.attempts).toHaveLength(3);
  });

  it('a call inside a sub-flow is named by its node path', async () => {
    const parent = flow({
      id: 'main',
      nodes: [start(), subflow('sub', 'child'), end()],
      edges: [edge('start', 'sub'), edge('sub', 'end')],
    });
    const child = { ...payFlow(), id: 'child' };
    const report = await run(
      [parent, child],
      [startP1, { advance: 'PT2S' }, { respond: 'p1', node: 'sub/pay', status: 200 }],
      [{ call: 'sub/pay', status: 503 }],
    );
    // responses answer every attempt (the last for all after it): the respond finds none waiting.
    expect(report.errors.map((e) => e.step)).toEqual([2]);
    const p1 = processOf(report, 'p1');
    expect(p1.calls?.[0]?.node).toBe('sub/pay');
    expect(p1.calls?.[0]?.attempts.map((a) => a.status)).toEqual([503, 503]);
    expect(p1.calls?.[0]?.next).toBe(at(3000));
  });

  it('nothing is fetched, even for a host that does not exist', async () => {
    const fetched = vi.spyOn(globalThis, 'fetch').mockImplementation(() => {
      throw new Error('a scenario must not reach the network');
    });
    const report = await run(
      [payFlow()],
      [startP1, { advance: 'PT1S' }],
      [{ call: 'c', status: 200, body: 'scripted' }],
    );
    expect(processOf(report, 'p1').context).toMatchObject({
      res: { ok: true, status: 200, body: 'scripted' },
    });
    expect(fetched).not.toHaveBeenCalled();
  });
});

describe('rule: a respond step answers the current attempt of a call no response names', () => {
  it('until answered, the call waits with its attempt in flight and nothing due', async () => {
    const p1 = processOf(await run([payFlow()], [startP1, { advance: 'PT10S' }]), 'p1');
    expect(p1.status).toBe('waiting');
    expect(p1.calls).toEqual([
      { node: 'pay', trigger: 'c', attempts: [{ attempt: 1, at: at(0) }], next: null },
    ]);
  });

  it('answers it at the step’s instant, by node path or by trigger id', async () => {
    for (const name of ['pay', 'c']) {
      const report = await run(
        [payFlow()],
        [
          startP1,
          { advance: 'PT3S' },
          { respond: 'p1', node: name, status: 201, body: { id: 'r' } },
        ],
      );
      expect(report.errors).toEqual([]);
      const p1 = processOf(report, 'p1');
      expect(p1.status).toBe('done');
      expect(p1.context).toMatchObject({
        outcome: 'paid',
        res: { ok: true, status: 201, body: { id: 'r' } },
      });
      // Sent at T0, answered by the step at 3 s.
      expect(p1.calls?.[0]?.attempts).toEqual([{ attempt: 1, at: at(0), ms: 3000, status: 201 }]);
    }
  });

  it('a respond with no call waiting is an error naming the step, and the scenario goes on', async () => {
    const report = await run(
      [payFlow()],
      [
        startP1,
        { respond: 'p1', node: 'nowhere', status: 200 },
        { respond: 'ghost', node: 'pay', status: 200 },
        { respond: 'p1', node: 'pay', error: 'network' },
      ],
    );
    expect(report.errors.map((e) => e.step)).toEqual([1, 2]);
    expect(report.errors[0]!.error).toBe(
      'respond: process "p1" at "nowhere" is not waiting for a call',
    );
    expect(report.errors[1]!.error).toMatch(/no process "ghost"/);
    // The third step answered with a network error, not retried (on: 503, timeout).
    expect(processOf(report, 'p1').context).toMatchObject({
      res: { ok: false, status: 0, attempts: 1 },
    });
  });

  it('a respond to a call the responses answer is refused: no attempt waits for it', async () => {
    const report = await run(
      [payFlow()],
      [startP1, { respond: 'p1', node: 'pay', status: 200 }],
      [{ call: 'c', status: 503 }],
    );
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]).toMatchObject({ step: 1 });
    expect(report.errors[0]!.error).toMatch(/no attempt waiting for an answer/);
  });
});

describe('examples/scenarios/order-with-payment.scenario.json', () => {
  const file = fileURLToPath(
    new URL('../../examples/scenarios/order-with-payment.scenario.json', import.meta.url),
  );

  it('pays on the second attempt: a 503 after 2 s, a retry 1 s later, a 200 after 1 s', async () => {
    // Worked from the file: attempt 1 at 00:00 is answered 503 at 00:02; retry.interval PT1S
    // puts attempt 2 at 00:03, answered 200 at 00:04; the PT2M deadline never fires.
    const out = await simulateCommand(await readFile(file, 'utf8'));
    expect(out.code).toBe(0);
    const report = JSON.parse(out.out[0]!) as Awaited<ReturnType<typeof simulate>>;
    expect(report.errors).toEqual([]);
    const p1 = processOf(report, 'p1');
    expect(p1.status).toBe('done');
    expect(p1.context).toMatchObject({
      order: { status: 'paid', charge: 'ch_1' },
      payment: { ok: true, status: 200, attempts: 2 },
    });
    expect(p1.calls?.[0]?.attempts).toEqual([
      { attempt: 1, at: at(0), ms: 2000, status: 503 },
      { attempt: 2, at: at(3000), ms: 1000, status: 200 },
    ]);
  });

  it('rule: the same scenario gives the same report, byte for byte', async () => {
    const example = await readFile(file, 'utf8');
    const withRespond = scenarioText(
      [payFlow()],
      [
        startP1,
        { advance: 'PT2S' },
        { respond: 'p1', node: 'pay', status: 503 },
        { advance: 'PT5S' },
      ],
      [],
    );
    for (const t of [example, withRespond]) {
      const first = await simulateCommand(t);
      const second = await simulateCommand(t);
      expect(first.code).toBe(0);
      expect(second.out).toEqual(first.out);
    }
  });
});

describe('rule: a broken response is refused where it is, and nothing runs', () => {
  it('a status out of range names responses[i]', async () => {
    const out = await simulateCommand(
      scenarioText(
        [payFlow()],
        [startP1],
        [
          { call: 'c', status: 200 },
          { call: 'c', status: 999 },
        ],
      ),
    );
    expect(out.code).toBe(1);
    expect(out.out).toEqual([]);
    expect(out.err).toHaveLength(1);
    expect(out.err[0]).toMatch(/^responses\[1\]/);
    expect(out.err[0]).toMatch(/from 100 to 599/);
  });
});

import { describe, expect, it } from 'vitest';
import { callWait, edge, end, flow, start, text } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { parseScenario } from '../report/scenario.ts';
import { processOf } from './fixtures/scenarioRuns.ts';
import { simulateCommand } from './flowCommands.ts';

/**
 * `flow simulate` answers a call from a pin of the scenario's `pins` (docs/format.md#pinned-answers),
 * after its `responses` and before a `respond` step (docs/decisions.md, "Pins in a scenario").
 */

const payFlow: Flow = flow({
  id: 'main',
  nodes: [start(), callWait('pay', { url: "'https://pay.invalid/charge'" }), end()],
  edges: [edge('start', 'pay'), edge('pay', 'end', { trigger: 'c' })],
});

const pin = {
  flow: 'main',
  node: 'pay',
  trigger: 'c',
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: { from: 'pin' },
};

async function run(extra: Record<string, unknown>) {
  const result = await simulateCommand(
    text({
      format: 'scenario/1',
      flows: [payFlow],
      clock: '2026-01-01T00:00:00Z',
      ...extra,
      steps: [{ start: 'main', as: 'p1' }, { advance: 'PT1M' }],
    }),
  );
  if (result.code !== 0) throw new Error(result.err.join('\n'));
  return JSON.parse(result.out[0]!) as Parameters<typeof processOf>[0];
}

describe('pins in a scenario', () => {
  it('rule: a call no response names is answered by its pin, marked pinned in the report', async () => {
    const p1 = processOf(await run({ pins: [pin] }), 'p1');
    expect(p1.status).toBe('done');
    expect(p1.context).toMatchObject({ res: { ok: true, status: 200, body: { from: 'pin' } } });
    expect(p1.calls?.[0]?.attempts).toEqual([
      { attempt: 1, at: '2026-01-01T00:00:00.000Z', ms: 0, status: 200, pinned: true },
    ]);
  });

  it("rule: the scenario's responses answer before a pin", async () => {
    const p1 = processOf(
      await run({
        pins: [pin],
        responses: [{ call: 'c', status: 201, body: { from: 'response' } }],
      }),
      'p1',
    );
    expect(p1.context).toMatchObject({ res: { status: 201, body: { from: 'response' } } });
    expect(p1.calls?.[0]?.attempts[0]).not.toHaveProperty('pinned');
  });

  it('rule: the same scenario with pins gives the same report, byte for byte', async () => {
    const once = JSON.stringify(await run({ pins: [pin] }));
    expect(JSON.stringify(await run({ pins: [pin] }))).toBe(once);
  });

  it('bad input: a pin of the wrong shape refuses the scenario, naming where', () => {
    const parsed = parseScenario(
      text({
        format: 'scenario/1',
        flows: [payFlow],
        clock: '2026-01-01T00:00:00Z',
        pins: [{ ...pin, status: 'fine' }],
        steps: [],
      }),
    );
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.errors[0]).toMatch(/^pins\[0\]\.status: expected a number/);
  });
});

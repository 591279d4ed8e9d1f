import { describe, expect, it } from 'vitest';
import { minimalFlow, text } from '../../shared/fixtures/flows.ts';
import { parseScenario } from '../report/scenario.ts';

/**
 * A scenario answers calls from `responses` and `respond` steps (docs/format.md#scenarios): read
 * and checked here, each refusal naming where it is.
 */
const scenario = (extra: Record<string, unknown>, steps: unknown[] = []) =>
  text({
    format: 'scenario/1',
    flows: [minimalFlow('main')],
    clock: '2026-01-01T00:00:00Z',
    steps,
    ...extra,
  });

const errorsOf = (t: string) => {
  const parsed = parseScenario(t);
  if (parsed.ok) throw new Error('expected a refusal');
  return parsed.errors;
};

describe('rule: responses answer the attempts of a call, in the order listed', () => {
  it('reads answers and failures, kept in order', () => {
    const responses = [
      { call: 'pay', status: 503, after: 'PT2S' },
      { call: 'pay', error: 'timeout' },
      {
        call: 'sub/pay',
        status: 200,
        body: { id: 1 },
        headers: { 'content-type': 'application/json' },
      },
    ];
    const parsed = parseScenario(scenario({ responses }));
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    expect(parsed.scenario.responses).toEqual(responses);
  });

  it('a scenario without responses has none', () => {
    const parsed = parseScenario(scenario({}));
    expect(parsed.ok && parsed.scenario.responses).toBeUndefined();
  });

  it('refuses a status out of range, an unknown failure, a bad after and an unknown field, where each is', () => {
    const errors = errorsOf(
      scenario({
        responses: [
          { call: 'pay', status: 42 },
          { call: 'pay', error: 'dns' },
          { call: 'pay', status: 200, after: 'soon' },
          { call: 'pay', status: 200, delay: 'PT1S' },
        ],
      }),
    );
    expect(errors.length).toBeGreaterThan(0);
    for (const at of ['responses[0]', 'responses[1]', 'responses[2]', 'responses[3]'])
      expect(
        errors.some((e) => e.startsWith(at)),
        `${at} in ${errors.join(' | ')}`,
      ).toBe(true);
  });
});

describe('rule: a respond step answers the current attempt of a waiting call', () => {
  it('reads a respond step with a status, and one with a failure', () => {
    const steps = [
      { respond: 'p1', node: 'pay', status: 200, body: { ok: 1 } },
      { respond: 'p1', node: 'sub/pay', error: 'network' },
    ];
    const parsed = parseScenario(scenario({}, steps));
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    expect(parsed.scenario.steps).toEqual(steps);
  });

  it('refuses a step with both a status and an error, or neither, naming the step', () => {
    expect(
      errorsOf(scenario({}, [{ respond: 'p1', node: 'pay', status: 200, error: 'timeout' }])),
    ).toEqual([
      'steps[0]: a respond step has either a "status" or an "error", not both nor neither',
    ]);
    expect(
      errorsOf(
        scenario({}, [
          { start: 'main', as: 'p1' },
          { respond: 'p1', node: 'pay' },
        ]),
      ),
    ).toEqual([
      'steps[1]: a respond step has either a "status" or an "error", not both nor neither',
    ]);
  });

  it('refuses a failure with a body, and a step without its node', () => {
    expect(
      errorsOf(scenario({}, [{ respond: 'p1', node: 'pay', error: 'timeout', body: 1 }])),
    ).toEqual(['steps[0]: a failure without an answer has no "body" or "headers"']);
    expect(errorsOf(scenario({}, [{ respond: 'p1', status: 200 }]))[0]).toMatch(
      /^steps\[0\]\.node: /,
    );
  });
});

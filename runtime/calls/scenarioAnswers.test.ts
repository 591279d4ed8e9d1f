import { describe, expect, it } from 'vitest';
import { scenarioAnswer, type ScenarioResponse } from './scenarioAnswers.ts';

const responses: ScenarioResponse[] = [
  { call: 'charged', status: 503 },
  { call: 'other', status: 404 },
  { call: 'sub/pay', status: 200, body: { id: 1 }, after: 2000 },
];

describe("a scenario's responses, attempt by attempt (docs/format.md#scenarios)", () => {
  it('answers a call named by trigger or node path in the order listed, the last repeated', () => {
    const call = { trigger: 'charged', node: 'sub/pay' };
    expect(scenarioAnswer(responses, call, 1)).toEqual({ status: 503 });
    expect(scenarioAnswer(responses, call, 2)).toEqual({
      status: 200,
      body: { id: 1 },
      after: 2000,
    });
    expect(scenarioAnswer(responses, call, 5)).toEqual({
      status: 200,
      body: { id: 1 },
      after: 2000,
    });
  });

  it('gives no answer to a call no response names: it waits for a respond step', () => {
    expect(scenarioAnswer(responses, { trigger: 'x', node: 'y' }, 1)).toBeUndefined();
  });
});

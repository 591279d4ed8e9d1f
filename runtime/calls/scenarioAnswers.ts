import type { ScriptedAnswer } from './scriptedAnswer.ts';

/** A scenario's top-level `responses` entry (docs/format.md#scenarios), durations in ms. */
export type ScenarioResponse = ScriptedAnswer & { call: string };

/**
 * The answer a scenario gives attempt `attempt` (from 1) of a call: the responses naming its
 * trigger or its node path, in the order listed, the last one for every attempt after them;
 * undefined when none names it (the attempt then waits for a `respond` step).
 */
export function scenarioAnswer(
  responses: readonly ScenarioResponse[],
  call: { trigger: string; node: string },
  attempt: number,
): ScriptedAnswer | undefined {
  const named = responses.filter((r) => r.call === call.trigger || r.call === call.node);
  const chosen = named[Math.min(attempt, named.length) - 1];
  if (!chosen) return undefined;
  const { call: _named, ...answer } = chosen;
  return answer;
}

import { describe, expect, it } from 'vitest';
import { parseScenario, type Scenario } from '../../report/scenario.ts';
import type { SimulationReport } from '../../report/processReport.ts';
import { simulate } from '../../cli/simulate.ts';
import { runOnRestate, slower, TooSlow } from '../scenarioOnRestate.ts';
import { inject } from 'vitest';
import { callScenarios } from './fixtures/callScenarios.ts';
import { CONFORMANCE_SCENARIOS } from './fixtures/conformanceScenarios.ts';
import { ingress, uniquePrefix } from './ingress.ts';

/**
 * What both runtimes must agree on: all of the report but times and sizes, and the log of
 * attempts a simulation's scripted answers keep (the attempts' count is in the outcome, in the
 * context; each attempt on Restate is in its journal, faults.test.ts).
 */
function comparable(report: SimulationReport) {
  const processes: Record<string, unknown> = {};
  for (const [id, p] of Object.entries(report.processes)) {
    const { snapshotBytes: _bytes, waits, calls: _calls, ...rest } = p;
    processes[id] = { ...rest, waits: waits.map((w) => ({ node: w.node, triggers: w.triggers })) };
  }
  return { processes, errors: report.errors };
}

function parsed(json: unknown): Scenario {
  const result = parseScenario(JSON.stringify(json));
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.scenario;
}

/** Timers of 2 s, then 4, 8 and 16 s, while the machine is too busy to keep a second's margin. */
const FACTORS = [1, 2, 4, 8];

// One at a time: every step must be over well within a second of the step before it.
describe('the browser supervisor on a virtual clock and Restate in real time agree', () => {
  const scenarios = { ...CONFORMANCE_SCENARIOS, ...callScenarios(inject('calls').origin) };
  for (const [name, json] of Object.entries(scenarios)) {
    it(name, { timeout: 480_000 }, async () => {
      const reasons: string[] = [];
      for (const factor of FACTORS) {
        const scenario = slower(parsed(json), factor);
        const virtual = comparable(await simulate(scenario));
        try {
          const real = await runOnRestate(scenario, ingress(), {
            prefix: uniquePrefix('c'),
            marginMs: 1000 * factor,
          });
          expect(real).toEqual(virtual);
          return;
        } catch (e) {
          if (!(e instanceof TooSlow)) throw e;
          reasons.push(`timers x${factor}: ${e.message}`);
        }
      }
      throw new Error(
        `the machine was too busy to keep the scenario's margins: ${reasons.join('; ')}`,
      );
    });
  }
});

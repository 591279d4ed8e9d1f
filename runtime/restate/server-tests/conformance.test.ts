import { describe, expect, it } from 'vitest';
import { parseScenario, type Scenario } from '../../cli/scenario.ts';
import { simulate, type SimulationReport } from '../../cli/simulate.ts';
import { runOnRestate } from '../scenarioOnRestate.ts';
import { CONFORMANCE_SCENARIOS } from './fixtures/conformanceScenarios.ts';
import { ingress, uniquePrefix } from './ingress.ts';

/** What both runtimes must agree on: all of the report but times and sizes. */
function comparable(report: SimulationReport) {
  const processes: Record<string, unknown> = {};
  for (const [id, p] of Object.entries(report.processes)) {
    const { snapshotBytes: _bytes, waits, ...rest } = p;
    processes[id] = { ...rest, waits: waits.map((w) => ({ node: w.node, triggers: w.triggers })) };
  }
  return { processes, errors: report.errors };
}

function parsed(json: unknown): Scenario {
  const result = parseScenario(JSON.stringify(json));
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.scenario;
}

// One at a time: every step must be over well within a second of the step before it.
describe('the browser supervisor on a virtual clock and Restate in real time agree', () => {
  for (const [name, json] of Object.entries(CONFORMANCE_SCENARIOS)) {
    it(name, async () => {
      const scenario = parsed(json);
      const virtual = comparable(await simulate(scenario));
      const real = await runOnRestate(scenario, ingress(), { prefix: uniquePrefix('c') });
      expect(real).toEqual(virtual);
    });
  }
});

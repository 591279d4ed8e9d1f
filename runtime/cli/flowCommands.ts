import { parseScenario } from '../report/scenario.ts';
import { simulate } from './simulate.ts';
import { describeProblem } from '../../shared/describeProblem.ts';
import { parseFlowFile } from '../../shared/parseFlowFile.ts';
import type { Flow } from '../../shared/schema.ts';
import { signature } from '../../shared/signature.ts';
import { flowNotes, validateFlow } from '../../shared/validateFlow.ts';
import type { CommandResult } from './commandResult.ts';

/**
 * `flow validate FILE`: `ok` and the signature, exit 0; or one line per problem, exit 1. In a
 * `flows/1` file each flow is named, and sub-flow nodes are checked against the file's flows.
 * A flow that can run may also get notes on standard error: expressions calling a function the
 * runtime binds to the step (`$now()`, `$random()`, ...; shared/boundFunctions.ts).
 */
export function validateCommand(text: string): CommandResult {
  const parsed = parseFlowFile(text);
  if (!parsed.ok) return { out: [], err: parsed.errors, code: 1 };
  const byId = new Map(parsed.flows.map((f) => [f.id, f]));
  const several = parsed.format === 'flows/1';
  const out: string[] = [];
  const err: string[] = [...parsed.warnings.map((w) => `warning: ${w}`)];
  for (const flow of parsed.flows) {
    const problems = validateFlow(flow, several ? { flows: byId } : {});
    const prefix = several ? `flow "${flow.id}", ` : '';
    for (const p of problems) out.push(prefix + describeProblem(p));
  }
  if (out.length > 0) return { out, err, code: 1 };
  for (const flow of parsed.flows) {
    const prefix = several ? `flow "${flow.id}", ` : '';
    for (const n of flowNotes(flow)) err.push(`note: ${prefix}${describeProblem(n)}`);
  }
  if (!several) return { out: ['ok', signature(parsed.flows[0]!)], err, code: 0 };
  return { out: ['ok', ...parsed.flows.map(signatureLine)], err, code: 0 };
}

/** `flow signature FILE`: the signature; for a `flows/1` file, each flow's id and signature. */
export function signatureCommand(text: string): CommandResult {
  const parsed = parseFlowFile(text);
  if (!parsed.ok) return { out: [], err: parsed.errors, code: 1 };
  if (parsed.format === 'flow/1') return { out: [signature(parsed.flows[0]!)], err: [], code: 0 };
  return { out: parsed.flows.map(signatureLine), err: [], code: 0 };
}

const signatureLine = (flow: Flow) => `${flow.id} ${signature(flow)}`;

/** `flow simulate FILE`: runs a `scenario/1` file and prints the report as JSON. */
export async function simulateCommand(text: string): Promise<CommandResult> {
  const parsed = parseScenario(text);
  if (!parsed.ok) return { out: [], err: parsed.errors, code: 1 };
  const report = await simulate(parsed.scenario);
  return { out: [JSON.stringify(report, null, 2)], err: [], code: 0 };
}

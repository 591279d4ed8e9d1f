import { parseScenario } from '../report/scenario.ts';
import { simulate } from './simulate.ts';
import { parseFlowFile } from '../../shared/parseFlowFile.ts';
import { signature } from '../../shared/signature.ts';
import type { CommandResult } from '../command/commandResult.ts';
import { signatureLine } from '../command/validateCommand.ts';

/** `flow signature FILE`: the signature; for a `flows/1` file, each flow's id and signature. */
export function signatureCommand(text: string): CommandResult {
  const parsed = parseFlowFile(text);
  if (!parsed.ok) return { out: [], err: parsed.errors, code: 1 };
  if (parsed.format === 'flow/1') return { out: [signature(parsed.flows[0]!)], err: [], code: 0 };
  return { out: parsed.flows.map(signatureLine), err: [], code: 0 };
}

/** `flow simulate FILE`: runs a `scenario/1` file and prints the report as JSON. */
export async function simulateCommand(text: string): Promise<CommandResult> {
  const parsed = parseScenario(text);
  if (!parsed.ok) return { out: [], err: parsed.errors, code: 1 };
  const report = await simulate(parsed.scenario);
  return { out: [JSON.stringify(report, null, 2)], err: [], code: 0 };
}

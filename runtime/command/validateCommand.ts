import { describeProblem } from '../../shared/describeProblem.ts';
import { parseFlowFile } from '../../shared/parseFlowFile.ts';
import type { Flow } from '../../shared/schema.ts';
import { signature } from '../../shared/signature.ts';
import { flowNotes, validateFlow } from '../../shared/validateFlow.ts';
import type { CommandResult } from './commandResult.ts';

// Apart from the other commands: `flow validate`, `flow deploy` and the Restate server's own
// `deploy` handler check a file with the same messages.

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

/** A flow's id and signature, as `flow signature` prints each flow of a flows/1 file. */
export const signatureLine = (flow: Flow) => `${flow.id} ${signature(flow)}`;

import { exportBpmn } from '../../shared/bpmn/exportBpmn.ts';
import { importBpmn } from '../../shared/bpmn/importBpmn.ts';
import { describeProblem } from '../../shared/describeProblem.ts';
import { parseFlowFile } from '../../shared/parseFlowFile.ts';
import { validateFlow } from '../../shared/validateFlow.ts';
import type { CommandResult } from '../command/commandResult.ts';

/**
 * `flow import-bpmn FILE.bpmn`: the file as `flows/1` on standard output, exit 0; what was not
 * kept as `warning:` lines and what keeps a flow from running as `problem:` lines on standard
 * error (the flows still print: they can be imported and fixed). Not BPMN: the reason, exit 1.
 */
export async function importBpmnCommand(text: string): Promise<CommandResult> {
  const result = await importBpmn(text);
  if (!result.ok) return { out: [], err: result.errors, code: 1 };
  const byId = new Map(result.file.flows.map((f) => [f.id, f]));
  const problems = result.file.flows.flatMap((f) =>
    validateFlow(f, { flows: byId }).map((p) => `problem: flow "${f.id}", ${describeProblem(p)}`),
  );
  return {
    out: [JSON.stringify(result.file, null, 2)],
    err: [...result.warnings.map((w) => `warning: ${w}`), ...problems],
    code: 0,
  };
}

/** `flow export-bpmn FILE`: a `flow/1` or `flows/1` file as BPMN 2.0 XML with its layout. */
export async function exportBpmnCommand(text: string): Promise<CommandResult> {
  const parsed = parseFlowFile(text);
  if (!parsed.ok) return { out: [], err: parsed.errors, code: 1 };
  return {
    out: [await exportBpmn(parsed.flows)],
    err: parsed.warnings.map((w) => `warning: ${w}`),
    code: 0,
  };
}

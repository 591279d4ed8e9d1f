import { importBpmn } from '../../shared/bpmn/importBpmn.ts';
import { importFlows, type ImportResult } from './importFlows.ts';

/**
 * A BPMN 2.0 file for the workspace: mapped to `flows/1` (shared/bpmn), then put through the same
 * import as any flows file, so that ids, limits and the flows that cannot run are as for JSON.
 * What the mapping could not keep is said in the warnings; what keeps a flow from running is
 * noted on its node or edge. Loaded only when a BPMN file comes in.
 */
export async function importBpmnFlows(
  text: string,
  existing: ReadonlySet<string>,
): Promise<ImportResult> {
  const mapped = await importBpmn(text);
  if (!mapped.ok) {
    const shown = mapped.errors.slice(0, 3).join('; ');
    return {
      ok: false,
      message: `The file was not imported: it is not BPMN that can be read: ${shown}.`,
    };
  }
  const result = importFlows(JSON.stringify(mapped.file), existing);
  if (!result.ok) return result;
  return { ...result, warnings: [...result.warnings, ...mapped.warnings] };
}

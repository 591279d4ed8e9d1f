import { parseFlowFile } from '../../shared/parseFlowFile.ts';
import type { Flow } from '../../shared/schema.ts';

export type ImportResult =
  | { ok: true; flows: Flow[]; renamed: [string, string][]; warnings: string[] }
  | { ok: false; message: string };

/**
 * Reads a `flow/1` or `flows/1` file for the workspace. A refused file changes nothing and says
 * why, naming its first problems. A flow whose id the workspace already has comes in under a new
 * id (`orders` becomes `orders-2`), and the imported flows' sub-flow nodes follow the rename, so
 * nothing already there is ever overwritten.
 */
export function importFlows(text: string, existing: ReadonlySet<string>): ImportResult {
  const parsed = parseFlowFile(text);
  if (!parsed.ok) {
    const shown = parsed.errors.slice(0, 3).join('; ');
    const more = parsed.errors.length > 3 ? ` (and ${parsed.errors.length - 3} more)` : '';
    return { ok: false, message: `The file was not imported: ${shown}${more}.` };
  }
  const taken = new Set(existing);
  const rename = new Map<string, string>();
  for (const flow of parsed.flows) {
    let id = flow.id;
    for (let n = 2; taken.has(id); n++) id = `${flow.id}-${n}`;
    taken.add(id);
    if (id !== flow.id) rename.set(flow.id, id);
  }
  const flows = parsed.flows.map((flow) => ({
    ...flow,
    id: rename.get(flow.id) ?? flow.id,
    nodes: flow.nodes.map((n) =>
      n.kind === 'subflow' && rename.has(n.flow) ? { ...n, flow: rename.get(n.flow)! } : n,
    ),
  }));
  return { ok: true, flows, renamed: [...rename], warnings: parsed.warnings };
}

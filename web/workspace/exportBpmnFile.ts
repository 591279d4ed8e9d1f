import type { Flow } from '../../shared/schema.ts';
import { download, withCalledFlows } from './exportFlows.ts';

/**
 * Offers a flow, with the flows it calls, as a BPMN 2.0 file with its layout. BPMN's writer is
 * loaded on the first export, never with the page.
 */
export async function downloadBpmn(
  flow: Flow,
  workspace: ReadonlyMap<string, Flow>,
): Promise<void> {
  const { exportBpmn } = await import('../../shared/bpmn/exportBpmn.ts');
  const all = new Map(workspace).set(flow.id, flow);
  download(`${flow.id}.bpmn`, await exportBpmn(withCalledFlows(flow, all)), 'application/xml');
}

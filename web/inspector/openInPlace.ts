import { useDesigner } from '../designer/designerStore.ts';
import { openWorkspaceFlow } from '../workspace/workspaceActions.ts';
import { setScope, shownFlow, useInspector } from './inspectorState.ts';

/**
 * Opens a sub-flow node's flow on the canvas. When the canvas shows the inspected process there
 * (its top-level flow, or a sub-flow it was followed into), the process is followed in place:
 * the called flow opens with the child's position on it, one level further down the breadcrumb.
 */
export async function openSubflowNode(flowId: string, nodeId: string | undefined): Promise<void> {
  const s = useInspector.getState();
  const inPlace =
    nodeId !== undefined && s.inspection && shownFlow(s) === useDesigner.getState().meta.id
      ? [...s.inspection.levels[s.inspection.levels.length - 1]!.path, nodeId]
      : undefined;
  // The flow opens first: the breadcrumb follows the canvas to a level it already knows.
  await openWorkspaceFlow(flowId);
  if (inPlace) setScope(inPlace);
}

/** Goes back up to a level of the breadcrumb, by the sub-flow node ids that lead to it. */
export async function openLevel(path: string[], flowId: string): Promise<void> {
  await openWorkspaceFlow(flowId);
  setScope(path);
}

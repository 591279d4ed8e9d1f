import { useCallback } from 'react';
import { useDesignerStore, type DesignerStore } from '../designer/designerStore.ts';
import { useWorkspaceActions, type WorkspaceActions } from '../workspace/workspaceActions.ts';
import { setScope, shownFlow, useInspectorStore, type InspectorStore } from './inspectorState.ts';

/** What opening a flow in place reaches: the inspector's and designer's stores, the workspace. */
export interface OpenInPlaceDeps {
  inspector: InspectorStore;
  designer: DesignerStore;
  workspace: Pick<WorkspaceActions, 'openWorkspaceFlow'>;
}

/**
 * Opens a sub-flow node's flow on the canvas. When the canvas shows the inspected process there
 * (its top-level flow, or a sub-flow it was followed into), the process is followed in place:
 * the called flow opens with the child's position on it, one level further down the breadcrumb.
 */
export async function openSubflowNode(
  deps: OpenInPlaceDeps,
  flowId: string,
  nodeId: string | undefined,
): Promise<void> {
  const s = deps.inspector.getState();
  const inPlace =
    nodeId !== undefined && s.inspection && shownFlow(s) === deps.designer.getState().meta.id
      ? [...s.inspection.levels[s.inspection.levels.length - 1]!.path, nodeId]
      : undefined;
  // The flow opens first: the breadcrumb follows the canvas to a level it already knows.
  await deps.workspace.openWorkspaceFlow(flowId);
  if (inPlace) setScope(deps.inspector, inPlace);
}

/** Goes back up to a level of the breadcrumb, by the sub-flow node ids that lead to it. */
export async function openLevel(
  deps: OpenInPlaceDeps,
  path: string[],
  flowId: string,
): Promise<void> {
  await deps.workspace.openWorkspaceFlow(flowId);
  setScope(deps.inspector, path);
}

/**
 * What a sub-flow node's "Open" button does, bound to this workbench: a node component gets no
 * props but its data (React Flow renders it), so it reaches the stores through context.
 */
export function useOpenSubflowNode(): (flowId: string, nodeId?: string) => void {
  const inspector = useInspectorStore();
  const designer = useDesignerStore();
  const workspace = useWorkspaceActions();
  return useCallback(
    (flowId, nodeId) => void openSubflowNode({ inspector, designer, workspace }, flowId, nodeId),
    [inspector, designer, workspace],
  );
}

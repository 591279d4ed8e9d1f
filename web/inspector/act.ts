import { useCallback } from 'react';
import type { WorkbenchRuntime } from '../runtime/workbenchRuntime.ts';
import { useRuntimeConnection, type RuntimeConnection } from '../state/runtimeConnection.ts';
import { useWorkspaceActions, type WorkspaceActions } from '../workspace/workspaceActions.ts';
import { refreshInspection, useInspectorStores, type InspectorStores } from './inspectorState.ts';

/** What a control reaches: the runtime, the inspector's stores, and the designer's autosave. */
export interface ActDeps extends InspectorStores {
  connection: RuntimeConnection;
  workspace: Pick<WorkspaceActions, 'savePendingEdit'>;
}

/**
 * Runs an inspector control against this tab's runtime. A control that cannot be done shows
 * its reason (the supervisor changes nothing then); either way the views are read afresh. The
 * designer's last edit is saved first: what the process runs on is the flow on the canvas.
 */
export async function act(
  deps: ActDeps,
  control: (runtime: WorkbenchRuntime) => Promise<unknown>,
): Promise<boolean> {
  const runtime = deps.connection.current;
  if (!runtime) return false;
  try {
    await deps.workspace.savePendingEdit();
    await control(runtime);
    deps.inspector.setState({ error: undefined });
    return true;
  } catch (e) {
    deps.inspector.setState({ error: e instanceof Error ? e.message : String(e) });
    return false;
  } finally {
    await refreshInspection(deps, runtime);
  }
}

/** `act`, bound to this workbench's runtime and stores. */
export function useAct(): (
  control: (runtime: WorkbenchRuntime) => Promise<unknown>,
) => Promise<boolean> {
  const stores = useInspectorStores();
  const connection = useRuntimeConnection();
  const workspace = useWorkspaceActions();
  return useCallback(
    (control) => act({ ...stores, connection, workspace }, control),
    [stores, connection, workspace],
  );
}

import type { ReactNode } from 'react';
import {
  createDesignerStore,
  DesignerProvider,
  type DesignerStore,
} from '../designer/designerStore.ts';
import {
  createInspectorStore,
  InspectorProvider,
  type InspectorStore,
} from '../inspector/inspectorState.ts';
import {
  createRuntimeConnection,
  RuntimeConnectionProvider,
  type RuntimeConnection,
} from '../state/runtimeConnection.ts';
import {
  createRuntimeStateStore,
  RuntimeStateProvider,
  type RuntimeStateStore,
} from '../state/runtimeState.ts';
import { createShellStore, ShellProvider, type ShellStore } from '../state/shellState.ts';
import {
  createWorkspaceActions,
  WorkspaceActionsProvider,
  type WorkspaceActions,
} from '../workspace/workspaceActions.ts';

/**
 * Everything one workbench keeps: its stores (state that views render on) and its services
 * (objects that act, such as the runtime's client, kept out of state). Made once by the app's
 * entry and provided to every view through context; nothing of it lives in a module.
 */
export interface WorkbenchParts {
  designer: DesignerStore;
  shell: ShellStore;
  runtimeState: RuntimeStateStore;
  inspector: InspectorStore;
  connection: RuntimeConnection;
  workspace: WorkspaceActions;
}

export function createWorkbench(): WorkbenchParts {
  const runtimeState = createRuntimeStateStore();
  const connection = createRuntimeConnection();
  const designer = createDesignerStore();
  return {
    designer,
    shell: createShellStore(),
    runtimeState,
    inspector: createInspectorStore(),
    connection,
    workspace: createWorkspaceActions({ connection, designer, runtimeState }),
  };
}

/** Provides a workbench's stores and services to the views under it. */
export function WorkbenchProvider({
  parts,
  children,
}: {
  parts: WorkbenchParts;
  children: ReactNode;
}) {
  return (
    <RuntimeConnectionProvider value={parts.connection}>
      <RuntimeStateProvider value={parts.runtimeState}>
        <WorkspaceActionsProvider value={parts.workspace}>
          <InspectorProvider value={parts.inspector}>
            <DesignerProvider value={parts.designer}>
              <ShellProvider value={parts.shell}>{children}</ShellProvider>
            </DesignerProvider>
          </InspectorProvider>
        </WorkspaceActionsProvider>
      </RuntimeStateProvider>
    </RuntimeConnectionProvider>
  );
}

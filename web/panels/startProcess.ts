import { useMemo } from 'react';
import {
  refreshInspection,
  selectProcess,
  useInspectorStores,
  type InspectorStores,
} from '../inspector/inspectorState.ts';
import { useRuntimeConnection, type RuntimeConnection } from '../state/runtimeConnection.ts';
import { useWorkspaceActions, type WorkspaceActions } from '../workspace/workspaceActions.ts';
import { lastStart } from '../state/session.ts';
import { showRunView, useShellStore, type ShellStore } from '../state/shellState.ts';

/** A first context that makes each example do what it shows, for its first start. */
const EXAMPLE_CONTEXTS: Readonly<Record<string, string>> = {
  'nightly-refresh': '{ "prices": { "read": 0 } }',
  'order-approval': '{ "order": { "lines": [{ "price": 2, "qty": 3 }] } }',
  'fanout-join': '{ "amount": 700 }',
};

/** The context text a start of `flow` is prefilled with: its last start's, else `{}`. */
export function firstContextOf(flow: string): string {
  const last = lastStart.get(flow);
  return last === '{}' ? (EXAMPLE_CONTEXTS[flow] ?? last) : last;
}

export type StartContext = { text: string; value: unknown } | { shareWith: string };

/** What a start reaches: the runtime, the workspace, and the stores that show the new process. */
export interface StartDeps extends InspectorStores {
  shell: ShellStore;
  connection: RuntimeConnection;
  workspace: Pick<WorkspaceActions, 'openWorkspaceFlow' | 'savePendingEdit'>;
}

export function useStartDeps(): StartDeps {
  const stores = useInspectorStores();
  const shell = useShellStore();
  const connection = useRuntimeConnection();
  const workspace = useWorkspaceActions();
  return useMemo(
    () => ({ ...stores, shell, connection, workspace }),
    [stores, shell, connection, workspace],
  );
}

/**
 * Starts a process of `flow`, remembers the context it started with, and inspects it: the new
 * process is selected and the run view shown, so that what was started is what is seen.
 */
export async function startProcess(
  deps: StartDeps,
  flow: string,
  context: StartContext,
  paused: boolean,
): Promise<string> {
  const runtime = deps.connection.current;
  if (!runtime) throw new Error('the workspace is still opening; try again in a moment');
  // A flow just edited on the canvas starts as drawn, not as last autosaved.
  await deps.workspace.savePendingEdit();
  const record = await runtime.processes.start(
    flow,
    'shareWith' in context
      ? { shareContextWith: context.shareWith, paused }
      : { context: context.value, paused },
  );
  if ('text' in context) lastStart.set(flow, context.text);
  selectProcess(deps.inspector, record.id);
  showRunView(deps.shell);
  // Its position is drawn on the canvas of its flow.
  await deps.workspace.openWorkspaceFlow(flow);
  await refreshInspection(deps, runtime);
  return record.id;
}

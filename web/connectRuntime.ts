import { exampleFlows } from './examples.ts';
import { refreshInspection } from './inspector/inspectorState.ts';
import { followRuntime, refreshFlows, refreshList } from './state/runtimeState.ts';
import { changeBatches } from './runtime/changeBatches.ts';
import { createRuntime } from './runtime/createRuntime.ts';
import { readServerChoice, type ServerChoice } from './runtime/serverChoice.ts';
import { testHooksOf } from './runtime/testHooks.ts';
import { followDeletion } from './workspace/workspaceDeletion.ts';
import type { WorkbenchParts } from './shell/WorkbenchProvider.tsx';

/**
 * The server's runtime, loaded when a server is chosen: it holds the server's input checks (the
 * zod schemas of flows, with their pattern and expression parsers), which a workbench on this
 * browser never needs on its first screen.
 */
export const loadRemoteRuntime = () => import('./runtime/remoteRuntime.ts');

/** A server's runtime, once it answered; else why it cannot be used, and the way back. */
async function openRemote(server: ServerChoice) {
  const runtime = (await loadRemoteRuntime()).createRemoteRuntime(server);
  try {
    await runtime.check();
  } catch (e) {
    runtime.close();
    throw new Error(
      `the server at ${server.url} did not answer (${(e as Error).message}); choose “This browser” in the top bar to go back`,
      { cause: e },
    );
  }
  return runtime;
}

/** The workspace database of this app. */
export const WORKSPACE_DB = 'wakeflow-workspace';

/**
 * Opens this tab's runtime once and keeps the views' state in step with it. Refreshes are
 * coalesced: a burst of changes (a process running many steps) redraws once per frame at most.
 */
export async function connectRuntime(parts: WorkbenchParts): Promise<void> {
  const { connection, runtimeState, inspector } = parts;
  try {
    // A server chosen before (the top bar's "Connect to a server") survives a reload.
    const server = readServerChoice();
    const runtime = server
      ? await openRemote(server)
      : await createRuntime({
          dbName: WORKSPACE_DB,
          seed: exampleFlows,
          testHooks: testHooksOf(location.search),
        });
    connection.opened(runtime);
    // Another tab deleted the workspace: this one lets go of it too, so the deletion can finish.
    if (!server)
      followDeletion(WORKSPACE_DB, () => {
        runtime.close();
        runtimeState.setState({ ready: false, deleted: true });
      });
    // The clock and the save state: one copy on the page, set by the runtime client's events;
    // the clock's countdowns move even when nothing else changes.
    followRuntime(runtimeState, runtime);
    // Any number of change events between two re-reads make one batch: the rows the table
    // holds and the counts are read once for them all, the inspected process only if it changed.
    const refresh = changeBatches(
      async (batch) => {
        await Promise.all([
          batch.flows ? refreshFlows(runtimeState, runtime) : undefined,
          // A change of the flows may be a new worker (after a runaway): the window is read again.
          batch.processes.size > 0 || batch.flows
            ? refreshList(runtimeState, runtime, batch.flows ? undefined : batch.processes)
            : undefined,
          batch.inspected ? refreshInspection(parts, runtime) : undefined,
        ]);
      },
      () => inspector.getState().selected,
    );
    runtime.onChange(refresh);
    await refreshFlows(runtimeState, runtime);
    await refreshList(runtimeState, runtime);
  } catch (e) {
    runtimeState.setState({ failure: e instanceof Error ? e.message : String(e) });
  }
}

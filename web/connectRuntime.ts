import { exampleFlows } from './examples.ts';
import { refreshInspection, setClock, useInspector } from './inspector/inspectorState.ts';
import {
  refreshFlows,
  refreshList,
  refreshSaveState,
  useRuntimeState,
} from './state/runtimeState.ts';
import { changeBatches } from './runtime/changeBatches.ts';
import { createRuntime } from './runtime/createRuntime.ts';
import { testHooksOf } from './runtime/testHooks.ts';

/** The workspace database of this app. */
export const WORKSPACE_DB = 'wakeflow-workspace';

/**
 * Opens this tab's runtime once and keeps the views' state in step with it. Refreshes are
 * coalesced: a burst of changes (a process running many steps) redraws once per frame at most.
 */
export async function connectRuntime(): Promise<void> {
  try {
    const runtime = await createRuntime({
      dbName: WORKSPACE_DB,
      seed: exampleFlows,
      testHooks: testHooksOf(location.search),
    });
    // Any number of change events between two re-reads make one batch: the rows the table
    // holds and the counts are read once for them all, the inspected process only if it changed.
    const refresh = changeBatches(
      async (batch) => {
        refreshSaveState(runtime);
        await Promise.all([
          batch.flows ? refreshFlows(runtime) : undefined,
          // A change of the flows may be a new worker (after a runaway): the window is read again.
          batch.processes.size > 0 || batch.flows
            ? refreshList(runtime, batch.flows ? undefined : batch.processes)
            : undefined,
          batch.inspected ? refreshInspection(runtime) : undefined,
        ]);
      },
      () => useInspector.getState().selected,
    );
    runtime.onChange(refresh);
    await refreshFlows(runtime);
    await refreshList(runtime);
    // The clock's countdowns move even when nothing else changes.
    setInterval(() => setClock(runtime.clock.mode, runtime.clock.now()), 1000);
  } catch (e) {
    useRuntimeState.setState({ failure: e instanceof Error ? e.message : String(e) });
  }
}

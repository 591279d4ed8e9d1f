import { exampleFlows } from './examples.ts';
import { refreshInspection, setClock, useInspector } from './inspector/inspectorState.ts';
import { refreshRuntimeState, useRuntimeState } from './state/runtimeState.ts';
import { createRuntime, type Change } from './runtime/createRuntime.ts';
import { testHooksOf } from './runtime/testHooks.ts';

/** The shortest time between two redraws from the store. */
const REFRESH_GAP_MS = 150;

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
    // One redraw in flight at a time, and at most one more queued behind it: a burst of changes
    // (a long advance wakes hundreds of times) redraws a few times a second, not once per wake.
    let running = false;
    let again = false;
    // Whether the inspected process (or a flow it runs on) changed since the last redraw: only
    // then is it read again, so that another process's long run does not re-read its journal.
    let inspected = false;
    const refresh = (change: Change) => {
      const selected = useInspector.getState().selected;
      if (change.flows || (selected && change.processes.includes(selected))) inspected = true;
      redraw();
    };
    const redraw = () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      requestAnimationFrame(async () => {
        const reread = inspected;
        inspected = false;
        try {
          await Promise.all([
            refreshRuntimeState(runtime),
            reread ? refreshInspection(runtime) : undefined,
          ]);
        } finally {
          setTimeout(() => {
            running = false;
            if (again) {
              again = false;
              redraw();
            }
          }, REFRESH_GAP_MS);
        }
      });
    };
    runtime.onChange(refresh);
    await refreshRuntimeState(runtime);
    // The clock's countdowns move even when nothing else changes.
    setInterval(() => setClock(runtime.clock.mode, runtime.clock.now()), 1000);
  } catch (e) {
    useRuntimeState.setState({ failure: e instanceof Error ? e.message : String(e) });
  }
}

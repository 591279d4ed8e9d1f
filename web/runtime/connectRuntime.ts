import { exampleFlows } from '../examples.ts';
import { refreshInspection, useInspector } from '../inspector/inspectorState.ts';
import { refreshRuntimeState, useRuntimeState } from '../state/runtimeState.ts';
import { createRuntime } from './createRuntime.ts';

/** The workspace database of this app. */
export const WORKSPACE_DB = 'wakeflow-workspace';

/**
 * Opens this tab's runtime once and keeps the views' state in step with it. Refreshes are
 * coalesced: a burst of changes (a process running many steps) redraws once per frame at most.
 */
export async function connectRuntime(): Promise<void> {
  try {
    const runtime = await createRuntime({ dbName: WORKSPACE_DB, seed: exampleFlows });
    let queued = false;
    const refresh = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        void refreshRuntimeState(runtime);
        void refreshInspection(runtime);
      });
    };
    runtime.onChange(refresh);
    await refreshRuntimeState(runtime);
    // The clock's countdowns move even when nothing else changes.
    setInterval(
      () =>
        useInspector.setState({ clock: { mode: runtime.clock.mode, now: runtime.clock.now() } }),
      1000,
    );
  } catch (e) {
    useRuntimeState.setState({ failure: e instanceof Error ? e.message : String(e) });
  }
}

import type { Runtime } from '../runtime/createRuntime.ts';
import { useRuntimeState } from '../state/runtimeState.ts';
import { savePendingEdit } from '../workspace/workspaceActions.ts';
import { refreshInspection, useInspector } from './inspectorState.ts';

/**
 * Runs an inspector control against this tab's runtime. A control that cannot be done shows
 * its reason (the supervisor changes nothing then); either way the views are read afresh. The
 * designer's last edit is saved first: what the process runs on is the flow on the canvas.
 */
export async function act(control: (runtime: Runtime) => Promise<unknown>): Promise<boolean> {
  const runtime = useRuntimeState.getState().runtime;
  if (!runtime) return false;
  try {
    await savePendingEdit();
    await control(runtime);
    useInspector.setState({ error: undefined });
    return true;
  } catch (e) {
    useInspector.setState({ error: e instanceof Error ? e.message : String(e) });
    return false;
  } finally {
    await refreshInspection(runtime);
  }
}

import { create } from 'zustand';
import type { Flow } from '../../shared/schema.ts';
import type { SaveState } from '../../runtime/store/resilientStore.ts';
import type { Runtime } from '../runtime/createRuntime.ts';
import type { ProcessView } from '../runtime/runtimeProtocol.ts';

export type { ProcessView };

interface RuntimeState {
  runtime: Runtime | undefined;
  flows: Flow[];
  processes: ProcessView[];
  saveState: SaveState;
  /** Why the runtime could not open, if it could not. */
  failure: string | undefined;
}

export const useRuntimeState = create<RuntimeState>(() => ({
  runtime: undefined,
  flows: [],
  processes: [],
  saveState: { saved: true },
  failure: undefined,
}));

/** Reads what the views show from the store; called on every change, here or in another tab. */
export async function refreshRuntimeState(runtime: Runtime): Promise<void> {
  const views = await runtime.views();
  const before = useRuntimeState.getState();
  const flows = sameJson(before.flows, views.flows) ? before.flows : views.flows;
  const processes = keptProcesses(before.processes, views.processes);
  const saveState = sameJson(before.saveState, views.saveState)
    ? before.saveState
    : views.saveState;
  // What is as it was keeps its object, so that the views that show it do not render.
  if (
    before.runtime === runtime &&
    flows === before.flows &&
    processes === before.processes &&
    saveState === before.saveState
  )
    return;
  useRuntimeState.setState({ runtime, flows, processes, saveState });
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The processes read now, each that is as it was by its object of before; the list too. */
function keptProcesses(before: ProcessView[], now: ProcessView[]): ProcessView[] {
  const byId = new Map(before.map((p) => [p.id, p]));
  let changed = before.length !== now.length;
  const out = now.map((p, i) => {
    const was = byId.get(p.id);
    const kept = was && sameJson(was, p) ? was : p;
    if (kept !== before[i]) changed = true;
    return kept;
  });
  return changed ? out : before;
}

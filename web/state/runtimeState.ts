import { create } from 'zustand';
import type { Flow } from '../../shared/schema.ts';
import type { SaveState } from '../../runtime/store/resilientStore.ts';
import type { ProcessStatus } from '../../runtime/supervisor/records.ts';
import type { Runtime } from '../runtime/createRuntime.ts';

/** A process as the app shows it. */
export interface ProcessView {
  id: string;
  flow: string;
  status: ProcessStatus;
  due: number | null;
  error: string | null;
  context: unknown;
  wakes: number;
}

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
  const { store, idb } = runtime;
  const flows = (await idb.listFlows()).sort((a, b) =>
    (a.name ?? a.id).localeCompare(b.name ?? b.id),
  );
  const processes = await Promise.all(
    (await store.listProcesses()).map(async (p): Promise<ProcessView> => {
      const context = await store.getContext(p.contextId);
      return {
        id: p.id,
        flow: p.flow,
        status: p.status,
        due: p.due,
        error: p.error,
        context: context?.value ?? null,
        wakes: p.wakes ?? 0,
      };
    }),
  );
  useRuntimeState.setState({ runtime, flows, processes, saveState: store.saveState });
}

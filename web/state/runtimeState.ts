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
  const { flows, processes, saveState } = await runtime.views();
  useRuntimeState.setState({ runtime, flows, processes, saveState });
}

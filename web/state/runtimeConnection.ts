import type { WorkbenchRuntime } from '../runtime/workbenchRuntime.ts';
import { useRuntimeState } from './runtimeState.ts';
import { serviceContext } from './storeContext.ts';

/**
 * This tab's runtime client, as a service: made empty by the workbench, opened once by the
 * app's entry (connectRuntime.ts). It is kept out of every store: no view renders on it, and
 * the runtime state store says only whether it is ready.
 */
export interface RuntimeConnection {
  /** The runtime, once it opened. */
  readonly current: WorkbenchRuntime | undefined;
  /** The runtime once it opened: an action taken sooner waits for it. */
  ready(): Promise<WorkbenchRuntime>;
  /** Called once, when the runtime opened. */
  opened(runtime: WorkbenchRuntime): void;
}

export function createRuntimeConnection(): RuntimeConnection {
  let current: WorkbenchRuntime | undefined;
  let resolve: (runtime: WorkbenchRuntime) => void = () => {};
  const ready = new Promise<WorkbenchRuntime>((r) => (resolve = r));
  return {
    get current() {
      return current;
    },
    ready: () => ready,
    opened(runtime) {
      current = runtime;
      resolve(runtime);
    },
  };
}

const context = serviceContext<RuntimeConnection>('the runtime connection');
export const RuntimeConnectionProvider = context.Provider;
export const useRuntimeConnection = context.use;

/** The runtime once the workspace opened, else undefined; renders when it opens. */
export function useRuntime(): WorkbenchRuntime | undefined {
  const connection = useRuntimeConnection();
  const ready = useRuntimeState((s) => s.ready);
  return ready ? connection.current : undefined;
}

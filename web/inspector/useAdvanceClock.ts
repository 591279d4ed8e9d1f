import { useCallback } from 'react';
import type { WorkbenchRuntime } from '../runtime/workbenchRuntime.ts';
import { useRuntimeStateStore } from '../state/runtimeState.ts';
import { useAct } from './act.ts';
import { useInspectorStore } from './inspectorState.ts';

/**
 * Moves the virtual clock to the time `target` gives (switching a real clock to virtual first),
 * firing every timer due on the way, with the advance's progress shown and cancellable in the
 * clock controls. The clock controls' "Advance clock" and "To next due timer" and a waiting
 * node's "Fire now" (WaitActions.tsx) are this one advance.
 */
export function useAdvanceClock(): (
  target: (runtime: WorkbenchRuntime) => Promise<number | null>,
) => Promise<boolean> {
  const act = useAct();
  const inspector = useInspectorStore();
  const runtimeState = useRuntimeStateStore();
  return useCallback(
    (target) =>
      act(async (runtime) => {
        if (runtimeState.getState().clock.mode === 'real') await runtime.clock.useVirtual();
        const to = await target(runtime);
        if (to === null)
          throw new Error(
            'no timer is due: every process is done, or waits for an event or a person',
          );
        const controller = new AbortController();
        // The clock's time as the page shows it: the one copy, which the runtime's events set.
        const start = runtimeState.getState().clock.now;
        inspector.setState({
          advancing: {
            from: start,
            target: to,
            reached: start,
            wakes: 0,
            cancel: () => controller.abort(),
          },
        });
        try {
          await runtime.clock.advanceTo(to, {
            signal: controller.signal,
            onProgress: (reached, wakes) =>
              inspector.setState((s) =>
                s.advancing ? { advancing: { ...s.advancing, reached, wakes } } : {},
              ),
          });
        } finally {
          inspector.setState({ advancing: undefined });
        }
      }),
    [act, inspector, runtimeState],
  );
}

import { refreshInspection, selectProcess } from '../inspector/inspectorState.ts';
import { inspectedProcess, tabClock } from '../state/session.ts';
import type { WorkbenchParts } from './WorkbenchProvider.tsx';

/**
 * Brings back this tab's session after a reload: the virtual clock (its mode and time) and the
 * process inspected; then keeps the clock's state for the next reload. The open flow and the
 * panel sizes come back on their own (the workspace's meta, the layout's storage).
 */
export async function restoreSession(parts: WorkbenchParts): Promise<void> {
  const { connection, runtimeState, inspector } = parts;
  const runtime = connection.current;
  if (!runtime) return;
  const clock = tabClock.get();
  // A runtime whose clock is its own (a server's) keeps its time; the tab's virtual one is gone.
  if (clock?.mode === 'virtual' && runtime.capabilities.virtualClock === true) {
    await runtime.clock.useVirtual();
    // The virtual clock restarts at the real time; time it had reached beyond that comes back.
    if (clock.now > runtimeState.getState().clock.now) await runtime.clock.advanceTo(clock.now, {});
  }
  const id = inspectedProcess.get();
  if (id && (await runtime.hasProcess(id))) {
    selectProcess(inspector, id);
  }
  await refreshInspection(parts, runtime);
  // Kept at most once a second: the clock ticks that often, and the mode changes on a click.
  let last = '';
  runtimeState.subscribe((s) => {
    const next = JSON.stringify({ mode: s.clock.mode, now: s.clock.now });
    if (next === last) return;
    last = next;
    tabClock.set({ mode: s.clock.mode, now: s.clock.now });
  });
}

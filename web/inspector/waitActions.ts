import type { WorkbenchRuntime } from '../runtime/workbenchRuntime.ts';

/**
 * What a designer can give a waiting process, as controls for `act` (act.ts): the run view's
 * waits panel (WaitForms.tsx, CallWaitView.tsx) and the waiting node on the canvas
 * (canvas/nodes/WaitActions.tsx) both send these, so the two places cannot differ.
 */

/** Delivers event `name` to the process; refused when it does not wait for that event. */
export const deliverEventTo =
  (processId: string, name: string, payload: unknown) =>
  async (r: WorkbenchRuntime): Promise<void> => {
    const delivered = await r.processes.deliverEvent(name, payload, processId);
    if (delivered === 0)
      throw new Error(`process ${processId} is not waiting for "${name}"; the event was dropped`);
  };

/** Answers a human trigger, bound to the wait the form was shown for (`seq`). */
export const answerHuman =
  (processId: string, path: string, input: Record<string, unknown>, trigger: string, seq: number) =>
  (r: WorkbenchRuntime) =>
    r.processes.submitHuman(processId, path, input, trigger, seq);

/** Sends the next attempt of a call now, with the same Idempotency-Key. */
export const sendCallNowTo =
  (processId: string, wait: { seq: number; node: string }) =>
  async (r: WorkbenchRuntime): Promise<void> => {
    if (!(await r.processes.sendCallNow(processId, wait.seq)))
      throw new Error(`the call at ${wait.node} has no attempt left to send`);
  };

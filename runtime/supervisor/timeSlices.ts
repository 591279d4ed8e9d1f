/**
 * The pause a long run takes between its steps in the runtime's worker (the supervisor's
 * `betweenSteps`): once `sliceMs` of real time has gone by since the last one, a turn of the
 * event loop, so that the messages queued meanwhile are handled (the page's commands, another
 * tab's Stop). A MessageChannel message rather than `setTimeout`, which browsers clamp to 4 ms
 * once nested; a run of quick steps pays one turn per slice, not one per step.
 */
export function timeSlices(sliceMs: number, now: () => number = () => performance.now()) {
  let since = now();
  return (): Promise<void> | void => {
    if (now() - since < sliceMs) return;
    return new Promise<void>((resolve) => {
      // A channel of its own each time: a port that is sent to while it is being read may be
      // read again at once (Node does), ahead of what other ports hold.
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => {
        port1.close();
        since = now();
        resolve();
      };
      port2.postMessage(null);
    });
  };
}

import type {
  Capabilities,
  RuntimeClientState,
  WorkbenchRuntime,
} from '../web/runtime/workbenchRuntime.ts';

/** Each capability off, with the reason a server's runtime would give. */
export const NO_CAPABILITIES: Capabilities = {
  virtualClock: 'The server keeps its own time; its clock cannot be moved from here.',
  callSettings: 'The server keeps its own allowed origins and secrets.',
  pins: 'The server sends every call; answers cannot be pinned.',
  retention: 'The server keeps its journal by its own rule.',
  stepping: 'The server runs each process until it waits.',
  fork: 'The server does not fork processes.',
  deploy: 'This runtime runs flows as they are saved.',
};

/**
 * A WorkbenchRuntime (web/runtime/workbenchRuntime.ts) that runs nothing, for a view's test: it
 * tells one state and its capabilities (NO_CAPABILITIES unless given), and every other call is
 * refused, so a view that calls what the test did not expect fails loudly instead of waiting.
 */
export function fakeWorkbenchRuntime(
  options: { capabilities?: Capabilities; state?: RuntimeClientState } = {},
): WorkbenchRuntime {
  const state = options.state ?? { clock: { mode: 'real' }, saveState: { saved: true } };
  const refused = (name: string) => () =>
    Promise.reject(new Error(`the fake runtime does not ${name}`));
  const refuseAll = <T extends object>(group: string, names: (keyof T & string)[]): T =>
    Object.fromEntries(names.map((n) => [n, refused(`${group}${n}`)])) as T;
  return {
    capabilities: options.capabilities ?? NO_CAPABILITIES,
    processes: refuseAll<WorkbenchRuntime['processes']>('processes.', [
      'start',
      'fork',
      'stop',
      'resume',
      'retry',
      'drive',
      'stepOnce',
      'wakeNow',
      'continueProblem',
      'resolve',
      'replaceContext',
      'deliverEvent',
      'submitHuman',
      'sendCallNow',
    ]),
    clock: refuseAll<WorkbenchRuntime['clock']>('clock.', [
      'useVirtual',
      'useReal',
      'nextDue',
      'advanceTo',
    ]),
    onState(listener) {
      listener(state);
      return () => undefined;
    },
    onChange: () => () => undefined,
    ...refuseAll<
      Omit<
        WorkbenchRuntime,
        'capabilities' | 'processes' | 'clock' | 'onState' | 'onChange' | 'close'
      >
    >('', [
      'flowsView',
      'processList',
      'processCounts',
      'processIds',
      'processNames',
      'hasProcess',
      'reading',
      'journal',
      'pastContext',
      'nodeVisits',
      'wakeDue',
      'retention',
      'setRetention',
      'openFlow',
      'setOpenFlow',
      'callSettings',
      'allowOrigin',
      'removeOrigin',
      'setSecret',
      'removeSecret',
      'testRequest',
      'pinCall',
      'unpinCall',
      'restorePins',
      'saveFlow',
      'deleteFlow',
      'deploy',
    ]),
    close: () => undefined,
  };
}

import { expose, proxy, type ProxyMarked } from 'comlink';
import { WebLocks } from '../../runtime/supervisor/locks.ts';
import type { WorkerStart } from './runtimeProtocol.ts';
import { installTestHooks } from './installTestHooks.ts';
import { openWorkerRuntime, type WorkerRuntime } from './workerRuntime.ts';

/**
 * The runtime's Web Worker: a long run, or an expression that will not stop, never freezes the
 * page, and the page can end this worker and start another (see createRuntime.ts). Events go
 * out through `port`; calls come in through Comlink on the object `open` returns.
 */
const entry = {
  async open(start: WorkerStart, port: MessagePort): Promise<WorkerRuntime & ProxyMarked> {
    installTestHooks(start.testHooks);
    const runtime = await openWorkerRuntime(
      start,
      (event) => port.postMessage(event),
      new WebLocks(navigator.locks),
    );
    return proxy(runtime);
  },
};

export type WorkerEntry = typeof entry;

expose(entry);

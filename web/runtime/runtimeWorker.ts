import { expose, proxy, type ProxyMarked } from 'comlink';
import { WebLocks } from '../../runtime/supervisor/locks.ts';
import type { PeerMessage, Peers, WorkerStart } from './runtimeProtocol.ts';
import { openWorkerRuntime, type WorkerRuntime } from './workerRuntime.ts';

/**
 * The runtime's Web Worker: a long run, or an expression that will not stop, never freezes the
 * page, and the page can end this worker and start another (see createRuntime.ts). Events go
 * out through `port`; calls come in through Comlink on the object `open` returns.
 */
const entry = {
  async open(
    start: WorkerStart,
    port: MessagePort,
    steps?: MessagePort,
  ): Promise<WorkerRuntime & ProxyMarked> {
    const post = (event: Parameters<Parameters<typeof openWorkerRuntime>[1]>[0]) =>
      port.postMessage(event);
    const runtime = await openWorkerRuntime(
      start,
      post,
      new WebLocks(navigator.locks),
      channelPeers(),
      // Each step's `busy` goes to the step relay's worker, which thins them for the page.
      steps ? (event) => steps.postMessage(event) : post,
    );
    return proxy(runtime);
  },
};

export type WorkerEntry = typeof entry;

const TAB_LOCK = 'wakeflow:tab:';

/**
 * The other tabs' runtimes, on the workspace's BroadcastChannel. Each runtime holds a Web Lock
 * of its own for as long as it is open, so that the others can tell it is there.
 */
function channelPeers(): Peers {
  const channel = new BroadcastChannel('wakeflow:changes');
  const mine = `${TAB_LOCK}${crypto.randomUUID()}`;
  void navigator.locks.request(mine, () => new Promise<never>(() => {}));
  return {
    async othersOpen() {
      const { held = [] } = await navigator.locks.query();
      return held.some((l) => l.name?.startsWith(TAB_LOCK) && l.name !== mine);
    },
    post: (message) => channel.postMessage(message),
    listen(hear) {
      channel.onmessage = (e: MessageEvent<PeerMessage>) => hear(e.data);
    },
    close: () => channel.close(),
  };
}

expose(entry);

/** Concurrent requests per origin, as browsers allow per host over HTTP/1.1. */
export const DEFAULT_PER_ORIGIN = 6;

/**
 * A bound on requests in flight per origin, so that a fan-out of 1,000 calls to one server opens
 * a handful of connections, not 1,000. Attempts over the bound wait their turn, first come first
 * served; other origins are not held up by a busy one.
 */
export class OriginLimiter {
  private readonly lanes = new Map<string, { active: number; queue: (() => void)[] }>();

  constructor(readonly perOrigin = DEFAULT_PER_ORIGIN) {
    if (!Number.isInteger(perOrigin) || perOrigin < 1) {
      throw new Error(`requests per origin must be a whole number of at least 1, not ${perOrigin}`);
    }
  }

  /**
   * Resolves with a release function once a request to `origin` may start; call it exactly once
   * when the request is over. An abort before the turn comes leaves the queue and rejects.
   */
  acquire(origin: string, signal?: AbortSignal): Promise<() => void> {
    const lane = this.lanes.get(origin) ?? { active: 0, queue: [] };
    this.lanes.set(origin, lane);
    const release = once(() => this.release(origin));
    if (lane.active < this.perOrigin) {
      lane.active++;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener('abort', abort);
        resolve(release);
      };
      const abort = () => {
        const at = lane.queue.indexOf(turn);
        if (at >= 0) lane.queue.splice(at, 1);
        reject(signal?.reason ?? new Error('aborted'));
      };
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      lane.queue.push(turn);
    });
  }

  /** Requests in flight and waiting for `origin`: what a test or the inspector may show. */
  load(origin: string): { active: number; waiting: number } {
    const lane = this.lanes.get(origin);
    return { active: lane?.active ?? 0, waiting: lane?.queue.length ?? 0 };
  }

  private release(origin: string): void {
    const lane = this.lanes.get(origin);
    if (!lane) return;
    const next = lane.queue.shift();
    // The slot passes straight to the next in line, so `active` stays as it was.
    if (next) return next();
    lane.active--;
    if (lane.active === 0) this.lanes.delete(origin);
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

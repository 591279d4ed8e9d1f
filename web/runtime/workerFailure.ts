/**
 * Rejects when `worker` fails as a whole (its script does not load, or throws where nothing
 * catches it), naming `what` in the message; never resolves. Marked handled, so that a worker that
 * fails while nobody awaits it leaves no unhandled rejection.
 */
export function failureOf(worker: Worker, what: string): Promise<never> {
  const failed = new Promise<never>((_, reject) =>
    worker.addEventListener('error', (e) =>
      reject(new Error(`${what} could not start: ${e.message || 'its script failed to load'}`)),
    ),
  );
  failed.catch(() => undefined);
  return failed;
}

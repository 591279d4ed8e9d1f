import type { ProcessRecord } from './records.ts';
import type { Store } from './store.ts';

/**
 * The store as the supervisor's parts see it: every write of a process record (`putProcess`,
 * and a `commitStep` that committed) is told to `committed` with the record as written, before
 * the write's caller goes on. Every commit of every control, wake, start, fork and batch goes
 * through one of the two, so this is the one place the call loop hears of them
 * (docs/architecture.md), with no read of its own. Everything else is the store's, untouched.
 */
export function watchCommits(
  store: Store,
  committed: (record: ProcessRecord) => Promise<void>,
): Store {
  const bound = new WeakMap<object, unknown>();
  const putProcess: Store['putProcess'] = async (record, journal) => {
    await store.putProcess(record, journal);
    await committed(record);
  };
  const commitStep: Store['commitStep'] = async (commit) => {
    const ok = await store.commitStep(commit);
    if (ok) await committed(commit.process);
    return ok;
  };
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'putProcess') return putProcess;
      if (prop === 'commitStep') return commitStep;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      // Bound once per method: the parts call the store's methods on every step.
      let fn = bound.get(value);
      if (!fn) bound.set(value, (fn = (value as (...a: unknown[]) => unknown).bind(target)));
      return fn;
    },
  });
}

import type { ResilientStore } from '../../runtime/store/resilientStore.ts';

/** Passes of a loop kept in full in the journal unless the designer sets another number. */
export const DEFAULT_KEEP_PASSES = 100;
/** The rule is applied to a process once it has woken this many times since it last was. */
export const PRUNE_EVERY_WAKES = 10;
const SETTING = 'journalRetention';

/**
 * The journal's retention rule, kept in the workspace's settings: the last N passes of each
 * process are kept in full and older ones summed up (IdbStore.pruneJournal), so that a loop
 * left running stores the same per pass however long it runs. Applied in the background, a
 * process at a time, every PRUNE_EVERY_WAKES wakes.
 */
export function journalRetention(store: ResilientStore) {
  let keep: number | undefined;
  const pruned = new Map<string, number>();
  const due = new Set<string>();
  let working = false;

  const keepPasses = async (): Promise<number> => {
    if (keep === undefined) {
      const stored = await store.getMeta(SETTING);
      keep = typeof stored === 'number' ? stored : DEFAULT_KEEP_PASSES;
    }
    return keep;
  };

  const work = async () => {
    if (working) return;
    working = true;
    try {
      for (const id of due) {
        due.delete(id);
        const record = await store.getProcess(id);
        const wakes = record?.wakes ?? 0;
        if (!record || wakes - (pruned.get(id) ?? 0) < PRUNE_EVERY_WAKES) continue;
        pruned.set(id, wakes);
        await store.pruneJournal(id, await keepPasses());
      }
    } catch (e) {
      console.error(e);
    } finally {
      working = false;
      if (due.size > 0) void work();
    }
  };

  return {
    keep: keepPasses,
    /** Sets how many passes are kept in full: a whole number from 1 to 100,000. */
    async set(passes: number): Promise<void> {
      if (!Number.isInteger(passes) || passes < 1 || passes > 100_000)
        throw new Error(
          `the passes kept must be a whole number from 1 to 100,000, got ${String(passes)}`,
        );
      await store.putMeta(SETTING, passes);
      keep = passes;
      pruned.clear();
    },
    /** A process changed: apply the rule to it if it woke enough times since it last was. */
    touched(id: string): void {
      due.add(id);
      void work();
    },
  };
}

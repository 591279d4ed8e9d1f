import type { Store } from '../supervisor/store.ts';

/** Records as JSON Lines: one JSON object per line, each line ending in a newline. */
export function toJsonLines(records: readonly unknown[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** A process's journal as JSON Lines, in the order it was written, for a user to take away. */
export async function exportJournal(store: Store, processId: string): Promise<string> {
  return toJsonLines(await store.journal(processId));
}

/** Every change to a context as JSON Lines: version, process, node and what changed. */
export async function exportContextChanges(store: Store, contextId: string): Promise<string> {
  return toJsonLines(await store.contextChanges(contextId));
}

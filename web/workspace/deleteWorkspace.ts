import { deleteDB } from 'idb';
import { deleteCallSettings } from '../calls/callSettingsStore.ts';

/**
 * Deletes a workspace whole: its database (flows, contexts, processes, journal) and the database
 * of its call settings beside it (web/calls/callSettingsStore.ts), so that a workspace's secrets
 * never outlive it. The one way a workspace is deleted; every runtime on it must be closed first
 * (a database that is open elsewhere is deleted once that connection closes).
 */
export async function deleteWorkspace(dbName: string): Promise<void> {
  await Promise.all([deleteDB(dbName), deleteCallSettings(dbName)]);
}

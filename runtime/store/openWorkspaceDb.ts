import { openDB, type IDBPDatabase } from 'idb';
import { DB_VERSION, UPGRADES, type WorkspaceDb } from './schema.ts';

export interface OpenOptions {
  /** The version to open; the current one unless a test writes an older database. */
  version?: number;
  /** Told when another tab needs this connection closed for its upgrade (it is closed). */
  onVersionChange?: () => void;
  /** Told when an older tab keeps the database open, so this one cannot upgrade yet. */
  onBlocked?: () => void;
}

/**
 * Opens (creating or upgrading) a workspace database. The connection closes itself when another
 * tab opens a newer version, so that tab's upgrade is never blocked.
 */
export async function openWorkspaceDb(
  name: string,
  options: OpenOptions = {},
): Promise<IDBPDatabase<WorkspaceDb>> {
  const version = options.version ?? DB_VERSION;
  const db = await openDB<WorkspaceDb>(name, version, {
    upgrade(database, oldVersion, _newVersion, tx) {
      for (let v = oldVersion + 1; v <= version; v++) UPGRADES[v]?.(database, tx);
    },
    blocked() {
      options.onBlocked?.();
    },
    blocking() {
      db.close();
      options.onVersionChange?.();
    },
  });
  return db;
}

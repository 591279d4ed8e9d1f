import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import {
  checkOrigin,
  checkSecretName,
  checkSecretValue,
  MAX_ORIGINS,
  MAX_SECRETS,
  type Checked,
} from './callSettingsRules.ts';

/**
 * The database of a workspace's call settings: beside the workspace's own, never inside it, so
 * that nothing that reads or writes flows, contexts, processes or the journal (export, backup,
 * snapshot, the journal itself) can reach a secret (docs/security.md#calls).
 */
export const callsDbName = (workspaceDb: string): string => `${workspaceDb}-calls`;

interface CallsSchema extends DBSchema {
  /** Allowed origins, each its own key (`https://shop.example`). */
  origins: { key: string; value: { origin: string; added: number } };
  /** Secret values by name. */
  secrets: { key: string; value: string };
}

/** What the page may know of the settings: the origins, and secrets by name only. */
export interface CallSettingsView {
  origins: string[];
  secrets: string[];
}

/** Every setting, values included: only the runtime worker reads this, to send attempts. */
export interface CallSettings {
  origins: string[];
  secrets: Map<string, string>;
}

/**
 * A workspace's allowed origins and secrets (docs/format.md#calls), checked before anything is
 * written: a refusal stores nothing and says why, without repeating a secret's value.
 */
export class CallSettingsStore {
  private constructor(private readonly db: IDBPDatabase<CallsSchema>) {}

  static async open(workspaceDb: string): Promise<CallSettingsStore> {
    const db = await openDB<CallsSchema>(callsDbName(workspaceDb), 1, {
      upgrade(db) {
        db.createObjectStore('origins');
        db.createObjectStore('secrets');
      },
      // Another tab deletes the workspace: let it.
      blocking: () => db.close(),
    });
    return new CallSettingsStore(db);
  }

  async read(): Promise<CallSettings> {
    const tx = this.db.transaction(['origins', 'secrets']);
    const origins = await tx.objectStore('origins').getAllKeys();
    const secrets = tx.objectStore('secrets');
    const [names, values] = await Promise.all([secrets.getAllKeys(), secrets.getAll()]);
    await tx.done;
    return { origins, secrets: new Map(names.map((n, i) => [n, values[i]!])) };
  }

  async view(): Promise<CallSettingsView> {
    const [origins, secrets] = await Promise.all([
      this.db.getAllKeys('origins'),
      this.db.getAllKeys('secrets'),
    ]);
    return { origins, secrets };
  }

  /** Adds an origin (normalised); the origin as kept, or why not. */
  async allowOrigin(text: unknown): Promise<Checked<string>> {
    const checked = checkOrigin(text);
    if (!checked.ok) return checked;
    const tx = this.db.transaction('origins', 'readwrite');
    const store = tx.objectStore('origins');
    if (!(await store.getKey(checked.value))) {
      if ((await store.count()) >= MAX_ORIGINS) {
        tx.abort();
        await tx.done.catch(() => undefined);
        return { ok: false, error: `a workspace allows at most ${MAX_ORIGINS} origins` };
      }
      await store.put({ origin: checked.value, added: Date.now() }, checked.value);
    }
    await tx.done;
    return checked;
  }

  async removeOrigin(origin: unknown): Promise<void> {
    if (typeof origin === 'string') await this.db.delete('origins', origin);
  }

  /** Adds or replaces a secret; its name, or why not (never naming the value). */
  async setSecret(name: unknown, value: unknown): Promise<Checked<string>> {
    const checkedName = checkSecretName(name);
    if (!checkedName.ok) return checkedName;
    const checkedValue = checkSecretValue(value);
    if (!checkedValue.ok) return checkedValue;
    const tx = this.db.transaction('secrets', 'readwrite');
    const store = tx.objectStore('secrets');
    if (!(await store.getKey(checkedName.value)) && (await store.count()) >= MAX_SECRETS) {
      tx.abort();
      await tx.done.catch(() => undefined);
      return { ok: false, error: `a workspace keeps at most ${MAX_SECRETS} secrets` };
    }
    await store.put(checkedValue.value, checkedName.value);
    await tx.done;
    return checkedName;
  }

  async removeSecret(name: unknown): Promise<void> {
    if (typeof name === 'string') await this.db.delete('secrets', name);
  }

  close(): void {
    this.db.close();
  }
}

/** Deletes a workspace's call settings (with the workspace: web/workspace/deleteWorkspace.ts). */
export async function deleteCallSettings(workspaceDb: string): Promise<void> {
  await deleteDB(callsDbName(workspaceDb));
}

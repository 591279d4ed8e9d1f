import { allowOrigins, type OriginAllowlist } from '../../runtime/calls/originAllowlist.ts';
import type { SecretSource } from '../../runtime/calls/secrets.ts';
import { CallSettingsStore, type CallSettingsView } from '../calls/callSettingsStore.ts';
import type { Checked } from '../calls/callSettingsRules.ts';

/** The channel on which a tab's runtime tells the others that the call settings changed. */
export const callSettingsChannel = (dbName: string) => `wakeflow:calls:${dbName}`;

/**
 * What the supervisor sends calls with in the browser (its `calls` option), on the workspace's
 * live settings, and the settings' writes, which only the runtime worker makes.
 */
export interface LiveCallOptions {
  secrets: SecretSource;
  allow: OriginAllowlist;
  fetch: typeof fetch;
  inBrowser: true;
  /** The settings as the page may see them: secrets by name only. */
  view(): Promise<CallSettingsView>;
  allowOrigin(text: unknown): Promise<Checked<string>>;
  removeOrigin(origin: unknown): Promise<void>;
  setSecret(name: unknown, value: unknown): Promise<Checked<string>>;
  removeSecret(name: unknown): Promise<void>;
  /** Reads the settings again (another tab changed them); resolves once the next attempt sees them. */
  reload(): Promise<void>;
  close(): void;
}

/**
 * The runtime worker's call options on the workspace `dbName`'s call settings. `allow` and
 * `secrets` read a copy in memory (the sender asks synchronously), which every write here
 * replaces before it resolves and which a write in another tab replaces when that tab's runtime
 * says so on a BroadcastChannel: a change in the settings dialog applies to the next attempt,
 * with no reload.
 */
export async function callOptionsFor(dbName: string): Promise<LiveCallOptions> {
  const store = await CallSettingsStore.open(dbName);
  let allow: OriginAllowlist = allowOrigins([]);
  let secrets = new Map<string, string>();
  // Reads may overlap (two writes in a row): the last one started is the one kept.
  let reads = 0;
  const reload = async () => {
    const read = ++reads;
    const settings = await store.read();
    if (read !== reads) return;
    // The list holds checked origins only; `*` is never one (checkOrigin refuses it).
    allow = allowOrigins(settings.origins.filter((o) => o !== '*'));
    secrets = settings.secrets;
  };
  await reload();

  const channel =
    typeof BroadcastChannel === 'undefined'
      ? undefined
      : new BroadcastChannel(callSettingsChannel(dbName));
  if (channel) channel.onmessage = () => void reload();
  const written = async <T>(write: Promise<T>): Promise<T> => {
    const result = await write;
    await reload();
    channel?.postMessage('changed');
    return result;
  };

  return {
    allow: { allows: (origin) => allow.allows(origin) },
    secrets: { get: (name) => secrets.get(name) },
    // Called on the worker's global: an unbound `fetch` throws "Illegal invocation".
    fetch: (input, init) => fetch(input, init),
    inBrowser: true,
    view: () => store.view(),
    allowOrigin: (text) => written(store.allowOrigin(text)),
    removeOrigin: (origin) => written(store.removeOrigin(origin)),
    setSecret: (name, value) => written(store.setSecret(name, value)),
    removeSecret: (name) => written(store.removeSecret(name)),
    reload,
    close() {
      channel?.close();
      store.close();
    },
  };
}

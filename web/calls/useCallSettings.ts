import { useEffect, useSyncExternalStore } from 'react';
import type { WorkbenchRuntime } from '../runtime/workbenchRuntime.ts';
import { useRuntime } from '../state/runtimeConnection.ts';
import type { Checked } from './callSettingsRules.ts';
import type { CallSettingsView } from './callSettingsStore.ts';

/** The page's copy of one runtime's call settings: origins and secret names, never a value. */
interface SettingsCopy {
  view: CallSettingsView | undefined;
  listeners: Set<() => void>;
  refresh(): Promise<void>;
}

// One copy per runtime, held by it: the dialog and every properties panel read the same one.
const copies = new WeakMap<WorkbenchRuntime, SettingsCopy>();

function copyOf(runtime: WorkbenchRuntime): SettingsCopy {
  let copy = copies.get(runtime);
  if (!copy) {
    const made: SettingsCopy = {
      view: undefined,
      listeners: new Set(),
      async refresh() {
        made.view = await runtime.callSettings();
        made.listeners.forEach((l) => l());
      },
    };
    copies.set(runtime, made);
    copy = made;
  }
  return copy;
}

const NONE = () => () => {};

/** The call settings' actions; each write is followed by a read, so every view shows it. */
export interface CallSettingsActions {
  allowOrigin(text: string): Promise<Checked<string>>;
  removeOrigin(origin: string): Promise<void>;
  setSecret(name: string, value: string): Promise<Checked<string>>;
  removeSecret(name: string): Promise<void>;
}

/**
 * The workspace's call settings as the page may know them (undefined until the runtime opened
 * and answered), and the writes. Read once per runtime, then after every write of this page.
 */
export function useCallSettings(): {
  view: CallSettingsView | undefined;
  actions: CallSettingsActions | undefined;
} {
  const runtime = useRuntime();
  const copy = runtime ? copyOf(runtime) : undefined;
  const view = useSyncExternalStore(
    copy
      ? (listener) => {
          copy.listeners.add(listener);
          return () => copy.listeners.delete(listener);
        }
      : NONE,
    () => copy?.view,
  );
  useEffect(() => {
    if (copy && copy.view === undefined) void copy.refresh();
  }, [copy]);
  if (!runtime || !copy) return { view, actions: undefined };
  const after =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await write(...args);
      await copy.refresh();
      return result;
    };
  return {
    view,
    actions: {
      allowOrigin: after((text: string) => runtime.allowOrigin(text)),
      removeOrigin: after((origin: string) => runtime.removeOrigin(origin)),
      setSecret: after((name: string, value: string) => runtime.setSecret(name, value)),
      removeSecret: after((name: string) => runtime.removeSecret(name)),
    },
  };
}

/** Reads the settings again (the dialog opens: another tab may have changed them). */
export function refreshCallSettings(runtime: WorkbenchRuntime | undefined): void {
  if (runtime) void copyOf(runtime).refresh();
}

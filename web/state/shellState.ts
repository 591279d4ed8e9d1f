import { createStore, type StoreApi } from 'zustand/vanilla';
import { storeContext } from './storeContext.ts';

/** The workbench's own state: which dialogs are open, and which panels are collapsed. */
interface ShellState {
  helpOpen: boolean;
  startOpen: boolean;
  collapsed: { sidebar: boolean; properties: boolean; run: boolean };
  /** Set by the layout: expands the run view if collapsed. */
  expandRun: () => void;
}

export type ShellStore = StoreApi<ShellState>;

export const createShellStore = (): ShellStore =>
  createStore<ShellState>()(() => ({
    helpOpen: false,
    startOpen: false,
    collapsed: { sidebar: false, properties: false, run: false },
    expandRun: () => {},
  }));

const context = storeContext<ShellState>('the shell store');
export const ShellProvider = context.Provider;
export const useShell = context.useSlice;
export const useShellStore = context.useStoreApi;

export const openHelp = (shell: ShellStore) => shell.setState({ helpOpen: true });
export const setHelpOpen = (shell: ShellStore, helpOpen: boolean) => shell.setState({ helpOpen });
export const setStartOpen = (shell: ShellStore, startOpen: boolean) =>
  shell.setState({ startOpen });

export function setCollapsed(
  shell: ShellStore,
  panel: keyof ShellState['collapsed'],
  value: boolean,
): void {
  shell.setState((s) =>
    s.collapsed[panel] === value ? s : { collapsed: { ...s.collapsed, [panel]: value } },
  );
}

/** Shows the run view, expanding it when it was collapsed. */
export function showRunView(shell: ShellStore): void {
  shell.getState().expandRun();
}

import { create } from 'zustand';

/** The workbench's own state: which dialogs are open, and which panels are collapsed. */
interface ShellState {
  helpOpen: boolean;
  startOpen: boolean;
  collapsed: { sidebar: boolean; properties: boolean; run: boolean };
  /** Set by the layout: expands the run view if collapsed. */
  expandRun: () => void;
}

export const useShell = create<ShellState>(() => ({
  helpOpen: false,
  startOpen: false,
  collapsed: { sidebar: false, properties: false, run: false },
  expandRun: () => {},
}));

export const openHelp = () => useShell.setState({ helpOpen: true });
export const setHelpOpen = (helpOpen: boolean) => useShell.setState({ helpOpen });
export const setStartOpen = (startOpen: boolean) => useShell.setState({ startOpen });

export function setCollapsed(panel: keyof ShellState['collapsed'], value: boolean): void {
  useShell.setState((s) =>
    s.collapsed[panel] === value ? s : { collapsed: { ...s.collapsed, [panel]: value } },
  );
}

/** Shows the run view, expanding it when it was collapsed. */
export function showRunView(): void {
  useShell.getState().expandRun();
}

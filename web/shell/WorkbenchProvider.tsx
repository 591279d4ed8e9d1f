import type { ReactNode } from 'react';
import { createShellStore, ShellProvider, type ShellStore } from '../state/shellState.ts';

/**
 * Everything one workbench keeps: its stores (state that views render on) and its services
 * (objects that act, such as the runtime's client, kept out of state). Made once by the app's
 * entry and provided to every view through context; nothing of it lives in a module.
 */
export interface WorkbenchParts {
  shell: ShellStore;
}

export function createWorkbench(): WorkbenchParts {
  return { shell: createShellStore() };
}

/** Provides a workbench's stores and services to the views under it. */
export function WorkbenchProvider({
  parts,
  children,
}: {
  parts: WorkbenchParts;
  children: ReactNode;
}) {
  return <ShellProvider value={parts.shell}>{children}</ShellProvider>;
}

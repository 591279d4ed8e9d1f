import { deleteWorkspace } from './deleteWorkspace.ts';

/** The channel on which the tab that deletes a workspace tells its other tabs to let go of it. */
export const workspaceDeletedChannel = (dbName: string) => `wakeflow:workspace-deleted:${dbName}`;

/**
 * Deletes the workspace this tab has open, from the app (the workspace list's menu): closes this
 * tab's runtime and tells every other tab to close its own, then deletes the workspace's
 * database and its call settings (deleteWorkspace.ts). Deleting waits for the other tabs'
 * connections to close, which they do on the message (followDeletion).
 */
export async function deleteOpenWorkspace(
  dbName: string,
  runtime: { close(): void } | undefined,
): Promise<void> {
  runtime?.close();
  const channel = openChannel(dbName);
  channel?.postMessage('deleted');
  channel?.close();
  await deleteWorkspace(dbName);
}

/**
 * Runs `onDeleted` when another tab deletes workspace `dbName` (after closing this tab's runtime
 * is the caller's part); the function returned stops listening.
 */
export function followDeletion(dbName: string, onDeleted: () => void): () => void {
  const channel = openChannel(dbName);
  if (!channel) return () => {};
  channel.onmessage = () => onDeleted();
  return () => channel.close();
}

const openChannel = (dbName: string) =>
  typeof BroadcastChannel === 'undefined'
    ? undefined
    : new BroadcastChannel(workspaceDeletedChannel(dbName));

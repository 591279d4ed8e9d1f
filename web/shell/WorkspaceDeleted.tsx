import { Button } from '../ui/Button.tsx';

/**
 * What a tab shows once its workspace is deleted (from this tab or another): the runtime is
 * closed and nothing is left to show. A new workspace starts on a reload, as on a first visit.
 */
export function WorkspaceDeleted() {
  return (
    <main className="workspace-deleted" aria-labelledby="workspace-deleted-heading">
      <h1 id="workspace-deleted-heading">The workspace was deleted</h1>
      <p>Its flows, processes and call settings, secrets included, are gone from this browser.</p>
      <Button variant="primary" autoFocus onClick={() => location.reload()}>
        Start a new workspace
      </Button>
    </main>
  );
}

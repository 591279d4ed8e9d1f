import { useMemo, useState } from 'react';
import { useDesigner } from '../designer/designerStore.ts';
import { useRuntimeState } from '../state/runtimeState.ts';
import {
  createFlow,
  deleteWorkspaceFlow,
  duplicateWorkspaceFlow,
  openWorkspaceFlow,
  renameWorkspaceFlow,
} from './workspaceActions.ts';

/** The workspace's flows: open one, create, rename, duplicate, delete (after a confirmation). */
export function WorkspaceList() {
  const stored = useRuntimeState((s) => s.flows);
  // Until the workspace has opened there is nowhere to save a new flow.
  const ready = useRuntimeState((s) => s.runtime !== undefined);
  const flows = useMemo(() => stored.map((f) => ({ id: f.id, name: f.name ?? f.id })), [stored]);
  const openId = useDesigner((s) => (s.open ? s.meta.id : undefined));
  const [renaming, setRenaming] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<string | undefined>();

  return (
    <nav className="workspace" aria-labelledby="workspace-heading">
      <h2 id="workspace-heading">Flows</h2>
      <button type="button" disabled={!ready} onClick={() => void createFlow()}>
        New flow
      </button>
      <ul aria-label="Flows">
        {flows.map((f) => (
          <li key={f.id} className={f.id === openId ? 'current' : undefined}>
            {renaming === f.id ? (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  const name = new FormData(e.currentTarget).get('name');
                  if (typeof name === 'string' && name.trim())
                    void renameWorkspaceFlow(f.id, name.trim());
                  setRenaming(undefined);
                }}
              >
                <label>
                  <span className="visually-hidden">New name for {f.name}</span>
                  <input
                    name="name"
                    defaultValue={f.name}
                    autoFocus
                    onKeyDown={(e) => e.key === 'Escape' && setRenaming(undefined)}
                  />
                </label>
                <button type="submit">Save name</button>
              </form>
            ) : (
              <button
                type="button"
                className="flow-link"
                aria-current={f.id === openId ? 'page' : undefined}
                onClick={() => void openWorkspaceFlow(f.id)}
              >
                {f.name}
              </button>
            )}
            <span className="flow-actions">
              <button
                type="button"
                aria-label={`Rename ${f.name}`}
                onClick={() => setRenaming(f.id)}
              >
                Rename
              </button>
              <button
                type="button"
                aria-label={`Duplicate ${f.name}`}
                onClick={() => void duplicateWorkspaceFlow(f.id)}
              >
                Duplicate
              </button>
              <button
                type="button"
                aria-label={`Delete ${f.name}`}
                onClick={() => setConfirming(f.id)}
              >
                Delete
              </button>
            </span>
            {confirming === f.id && (
              <div role="alertdialog" aria-labelledby={`confirm-${f.id}`} className="confirm">
                <p id={`confirm-${f.id}`}>
                  Delete “{f.name}”? Its processes keep the version they run on.
                </p>
                <button
                  type="button"
                  onClick={() => {
                    setConfirming(undefined);
                    void deleteWorkspaceFlow(f.id);
                  }}
                >
                  Delete {f.name}
                </button>
                <button type="button" autoFocus onClick={() => setConfirming(undefined)}>
                  Keep it
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

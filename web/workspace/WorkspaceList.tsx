import { useMemo, useState } from 'react';
import { useDesigner } from '../designer/designerStore.ts';
import { useRuntimeState } from '../state/runtimeState.ts';
import { Button, IconButton } from '../ui/Button.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Copy, Download, Ellipsis, Pencil, Plus, Trash2, Workflow } from '../ui/icons.tsx';
import { Menu } from '../ui/Menu.tsx';
import { download, flowFileText } from './exportFlows.ts';
import { useFlowNames } from './useFlowNames.ts';
import { useWorkspaceActions } from './workspaceActions.ts';

/**
 * The workspace's flows: open one; each has one menu to rename, duplicate, export or delete it
 * (after a confirmation). The open flow is marked, and so is each flow's count of processes.
 */
export function WorkspaceList() {
  // Until the workspace has opened there is nowhere to save a new flow.
  const ready = useRuntimeState((s) => s.ready);
  const {
    createFlow,
    deleteWorkspaceFlow,
    duplicateWorkspaceFlow,
    openWorkspaceFlow,
    renameWorkspaceFlow,
    workspaceFlows,
  } = useWorkspaceActions();
  const flows = useFlowNames();
  const sameName = useMemo(() => {
    const seen = new Map<string, number>();
    for (const f of flows) seen.set(f.name, (seen.get(f.name) ?? 0) + 1);
    return new Set([...seen].filter(([, n]) => n > 1).map(([name]) => name));
  }, [flows]);
  const openId = useDesigner((s) => (s.open ? s.meta.id : undefined));
  const [renaming, setRenaming] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<{ id: string; name: string } | undefined>();

  return (
    <nav className="workspace" aria-labelledby="workspace-heading">
      <div className="side-heading">
        <h2 id="workspace-heading">Flows</h2>
        <Button
          size="sm"
          variant="ghost"
          icon={<Plus size={14} aria-hidden="true" />}
          disabled={!ready}
          tooltip="Make a new flow with a start and an end, and open it"
          onClick={() => void createFlow()}
        >
          New flow
        </Button>
      </div>
      {ready && flows.length === 0 && (
        <p className="empty">No flows yet: press New flow, or import a file.</p>
      )}
      <ul aria-label="Flows">
        {flows.map((f) => {
          // Two flows of one name are told apart by their ids, in the list and in their menus.
          const shown = sameName.has(f.name) ? `${f.name} (${f.id})` : f.name;
          return (
            <li key={f.id} className={f.id === openId ? 'current' : undefined}>
              {renaming === f.id ? (
                <form
                  className="flow-rename"
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
                      className="wf-input"
                      defaultValue={f.name}
                      autoFocus
                      onKeyDown={(e) => e.key === 'Escape' && setRenaming(undefined)}
                    />
                  </label>
                  <Button type="submit" size="sm" variant="primary">
                    Save name
                  </Button>
                </form>
              ) : (
                <button
                  type="button"
                  className="flow-link"
                  aria-current={f.id === openId ? 'page' : undefined}
                  title={`Open ${shown} on the canvas`}
                  onClick={() => void openWorkspaceFlow(f.id)}
                >
                  <Workflow size={14} aria-hidden="true" />
                  <span>{f.name}</span>
                  {shown !== f.name && <span className="flow-link__id">({f.id})</span>}
                </button>
              )}
              <Menu
                label={`${shown} actions`}
                align="end"
                items={[
                  {
                    label: 'Rename',
                    icon: <Pencil size={14} />,
                    onSelect: () => setRenaming(f.id),
                  },
                  {
                    label: 'Duplicate',
                    icon: <Copy size={14} />,
                    onSelect: () => void duplicateWorkspaceFlow(f.id),
                  },
                  {
                    label: 'Export flow',
                    icon: <Download size={14} />,
                    onSelect: () => {
                      const flow = workspaceFlows().get(f.id);
                      if (flow) download(`${f.id}.flow.json`, flowFileText(flow));
                    },
                  },
                  'separator',
                  {
                    label: 'Delete…',
                    icon: <Trash2 size={14} />,
                    danger: true,
                    onSelect: () => setConfirming(f),
                  },
                ]}
                trigger={
                  <IconButton
                    size="sm"
                    className="flow-menu"
                    label={`Actions for ${shown}`}
                    tooltip="Rename, duplicate, export or delete"
                    icon={<Ellipsis size={14} />}
                  />
                }
              />
            </li>
          );
        })}
      </ul>
      <Dialog
        open={confirming !== undefined}
        onOpenChange={(o) => !o && setConfirming(undefined)}
        title={`Delete “${confirming?.name ?? ''}”?`}
        description="Its processes keep the version they run on. Undo cannot bring the flow back."
        size="sm"
        footer={
          <>
            <Button onClick={() => setConfirming(undefined)} autoFocus>
              Keep it
            </Button>
            <Button
              variant="danger"
              icon={<Trash2 size={14} aria-hidden="true" />}
              onClick={() => {
                const id = confirming?.id;
                setConfirming(undefined);
                if (id) void deleteWorkspaceFlow(id);
              }}
            >
              Delete {confirming?.name}
            </Button>
          </>
        }
      >
        {null}
      </Dialog>
    </nav>
  );
}

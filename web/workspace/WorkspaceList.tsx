import { useMemo, useState } from 'react';
import { WORKSPACE_DB } from '../connectRuntime.ts';
import { useDesigner } from '../designer/designerStore.ts';
import { useRuntimeConnection } from '../state/runtimeConnection.ts';
import { useRuntimeState, useRuntimeStateStore } from '../state/runtimeState.ts';
import { Button, IconButton } from '../ui/Button.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Copy, Download, Ellipsis, Pencil, Plus, Trash2, Workflow } from '../ui/icons.tsx';
import { Menu } from '../ui/Menu.tsx';
import { download, flowFileText } from './exportFlows.ts';
import { useFlowNames } from './useFlowNames.ts';
import { useWorkspaceActions } from './workspaceActions.ts';
import { deleteOpenWorkspace } from './workspaceDeletion.ts';

/**
 * The workspace's flows: open one; each has one menu to rename, duplicate, export or delete it
 * (after a confirmation). The open flow is marked, and so is each flow's count of processes.
 * The heading's menu deletes the whole workspace, after a confirmation that says what is lost.
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
  const [deletingAll, setDeletingAll] = useState(false);

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
        <Menu
          label="Workspace actions"
          align="end"
          items={[
            {
              label: 'Delete workspace…',
              icon: <Trash2 size={14} />,
              danger: true,
              disabled: !ready,
              onSelect: () => setDeletingAll(true),
            },
          ]}
          trigger={
            <IconButton
              size="sm"
              label="Workspace actions"
              tooltip="Delete the whole workspace"
              icon={<Ellipsis size={14} />}
            />
          }
        />
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
      <DeleteWorkspaceDialog open={deletingAll} onOpenChange={setDeletingAll} />
    </nav>
  );
}

/**
 * The confirmation before the whole workspace is deleted: it names what is lost (every flow,
 * every process with its context and journal, the allowed origins and the secrets), and its
 * safe answer has the focus.
 */
function DeleteWorkspaceDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const connection = useRuntimeConnection();
  const runtimeState = useRuntimeStateStore();
  const flows = useRuntimeState((s) => s.flows.length);
  const processes = useRuntimeState((s) => s.list.all);
  const [failure, setFailure] = useState<string | undefined>();
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete this workspace?"
      description="Everything it holds in this browser is lost, in every tab. Export the flows first to keep them; nothing can bring the rest back."
      size="sm"
      footer={
        <>
          <Button onClick={() => onOpenChange(false)} autoFocus>
            Keep it
          </Button>
          <Button
            variant="danger"
            icon={<Trash2 size={14} aria-hidden="true" />}
            onClick={() => {
              setFailure(undefined);
              deleteOpenWorkspace(WORKSPACE_DB, connection.current).then(
                () => runtimeState.setState({ ready: false, deleted: true }),
                (e: unknown) => setFailure(e instanceof Error ? e.message : String(e)),
              );
            }}
          >
            Delete workspace
          </Button>
        </>
      }
    >
      <ul className="workspace-loss" aria-label="What is deleted">
        <li>{plural(flows, 'flow', 'flows')}</li>
        <li>{plural(processes, 'process', 'processes')}, with their contexts and journals</li>
        <li>the allowed origins and the secrets of calls</li>
      </ul>
      {failure && (
        <p role="alert" className="warning">
          The workspace could not be deleted: {failure}
        </p>
      )}
    </Dialog>
  );
}

import { useRef, useState, type FormEvent } from 'react';
import { useDesigner } from '../designer/designerStore.ts';
import { loadRemoteRuntime } from '../connectRuntime.ts';
// The type alone: the runtime itself is loaded once a server is chosen.
import type { createRemoteRuntime } from '../runtime/remoteRuntime.ts';
import {
  checkIngressUrl,
  clearServerChoice,
  readServerChoice,
  saveServerChoice,
  serverName,
} from '../runtime/serverChoice.ts';
import { useRuntime } from '../state/runtimeConnection.ts';
import { withCalledFlows } from '../workspace/exportFlows.ts';
import { useWorkspaceActions } from '../workspace/workspaceActions.ts';
import { Button, IconButton } from '../ui/Button.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { CloudUpload, Server } from '../ui/icons.tsx';
import { notify } from '../ui/Toast.tsx';

/** The ingress of `npm run restate`, offered first. */
const LOCAL_INGRESS = 'http://127.0.0.1:8080';

/**
 * The top bar's way to a Restate server: "Connect to a server" from this browser; once
 * connected, the server named (so that nobody takes its processes for this browser's), Deploy,
 * and "This browser" back. The choice is kept across reloads (serverChoice.ts); switching
 * reloads the page, so no view holds what the other runtime told it.
 */
export function ServerEntry() {
  const server = readServerChoice();
  const [open, setOpen] = useState(false);
  if (!server)
    return (
      <>
        <IconButton
          label="Connect to a server"
          tooltip="Connect to a server: see and steer the processes a Restate server runs"
          icon={<Server size={16} />}
          aria-haspopup="dialog"
          onClick={() => setOpen(true)}
        />
        <ConnectDialog open={open} onOpenChange={setOpen} />
      </>
    );
  return (
    <div className="server-entry" role="group" aria-label={`Server ${serverName(server.url)}`}>
      <span className="server-entry__name" title={`Processes and flows of ${server.url}`}>
        <Server size={14} aria-hidden="true" />
        {serverName(server.url)}
      </span>
      <DeployButton />
      <Button
        size="sm"
        variant="ghost"
        tooltip="Leave the server: back to the flows and processes kept in this browser"
        onClick={() => {
          clearServerChoice();
          location.reload();
        }}
      >
        This browser
      </Button>
    </div>
  );
}

/**
 * Sends the open flow and the flows it calls to the server, or says why the server refused. The
 * canvas's last edit is saved first and the flows read from the runtime, not from the page's
 * copy, which a flow imported or edited a moment ago may not have reached yet.
 */
function DeployButton() {
  const runtime = useRuntime();
  const flowId = useDesigner((s) => (s.open ? s.meta.id : undefined));
  const workspace = useWorkspaceActions();
  const [busy, setBusy] = useState(false);
  const deploy = async () => {
    if (!runtime || !flowId) return;
    setBusy(true);
    try {
      await workspace.savePendingEdit();
      const flows = new Map((await runtime.flowsView()).flows.map((f) => [f.id, f]));
      const flow = flows.get(flowId);
      if (!flow) return notify.failed(`Not deployed: ${flowId} is not saved yet`);
      const done = await runtime.deploy(withCalledFlows(flow, flows));
      if (done.ok) notify.done(`Deployed ${done.value.join(', ')}`);
      else notify.failed(`Not deployed: ${done.error}`);
    } catch (e) {
      notify.failed(`Not deployed: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="sm"
      icon={<CloudUpload size={14} aria-hidden="true" />}
      disabled={!runtime || !flowId || busy}
      tooltip="Send the open flow, and the flows it calls, to the server"
      onClick={() => void deploy()}
    >
      {busy ? 'Deploying…' : 'Deploy'}
    </Button>
  );
}

/** Asks for the ingress URL (and a token), checks that wakeflow answers there, then switches. */
function ConnectDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [url, setUrl] = useState(LOCAL_INGRESS);
  const token = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const connect = async (e: FormEvent) => {
    e.preventDefault();
    const checked = checkIngressUrl(url);
    if (!checked.ok) return setError(checked.problem);
    const choice = {
      url: checked.url,
      ...(token.current?.value ? { token: token.current.value } : {}),
    };
    setBusy(true);
    setError(undefined);
    let runtime: ReturnType<typeof createRemoteRuntime>;
    try {
      runtime = (await loadRemoteRuntime()).createRemoteRuntime(choice);
    } catch (e) {
      setError(
        `the workbench could not load its server connection (${(e as Error).message}); reload the page and try again`,
      );
      setBusy(false);
      return;
    }
    try {
      await runtime.check();
    } catch (e) {
      // Nothing is kept: the workbench stays on this browser.
      setError((e as Error).message);
      setBusy(false);
      return;
    } finally {
      runtime.close();
    }
    saveServerChoice(choice);
    location.reload();
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Connect to a server"
      description="Show the flows and processes of a Restate server running wakeflow (flow serve) instead of this browser’s."
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="connect-server" disabled={busy}>
            {busy ? 'Connecting…' : 'Connect'}
          </Button>
        </>
      }
    >
      <form id="connect-server" className="connect-server" onSubmit={(e) => void connect(e)}>
        <Field
          label="Ingress URL"
          hint="Reached through this page’s own server: npm run dev for a local one, flow ui --ingress URL for any other."
          error={error}
        >
          {(control) => (
            <input
              {...control}
              className="wf-input prop-code"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              spellCheck={false}
              autoComplete="url"
            />
          )}
        </Field>
        <Field
          label="Bearer token (optional)"
          hint="For a hosted deployment; kept in this browser only, never exported nor shown again."
        >
          {(control) => (
            <input
              {...control}
              ref={token}
              type="password"
              className="wf-input"
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </Field>
      </form>
    </Dialog>
  );
}

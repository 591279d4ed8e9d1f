import { parseJsonText } from '../../shared/jsonText.ts';
import { useDesigner } from '../designer/designerStore.ts';
import { useRuntimeState } from '../state/runtimeState.ts';
import { Button, IconButton } from '../ui/Button.tsx';
import { ChevronDown, Play } from '../ui/icons.tsx';
import { notify } from '../ui/Toast.tsx';
import { useKeyShortcut } from '../ui/keyShortcut.ts';
import { setStartOpen } from '../state/shellState.ts';
import { firstContextOf, startProcess, useStartDeps } from '../panels/startProcess.ts';

/**
 * Start: a process of the flow on the canvas, on the context it last started with (or `{}`),
 * selected and shown at once. The arrow beside it opens the form with every choice.
 */
export function StartButton() {
  const ready = useRuntimeState((s) => s.ready);
  const flowId = useDesigner((s) => (s.open ? s.meta.id : undefined));
  const flowName = useDesigner((s) => s.meta.name ?? s.meta.id);
  const canRun = useDesigner((s) => s.problems.length === 0);
  const deps = useStartDeps();

  const start = async () => {
    if (!flowId) return;
    const text = firstContextOf(flowId);
    const parsed = parseJsonText(text);
    try {
      await startProcess(deps, flowId, { text, value: parsed.ok ? parsed.value : {} }, false);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      deps.inspector.setState({ error: `Could not start ${flowName}: ${why}` });
      notify.failed(`Could not start ${flowName}: ${why}`);
    }
  };

  useKeyShortcut('Ctrl+Enter', () => void start(), { enabled: ready && flowId !== undefined });

  return (
    <div className="start-button" role="group" aria-label="Start">
      <Button
        variant="primary"
        icon={<Play size={14} aria-hidden="true" />}
        disabled={!ready || !flowId}
        shortcut="Ctrl+Enter"
        tooltip={
          canRun
            ? `Start a process of ${flowName} on the context it last started with, and watch it`
            : `${flowName} has problems to fix before it can run; Problems lists them`
        }
        onClick={() => void start()}
      >
        Start
      </Button>
      <IconButton
        variant="primary"
        label="Start with options…"
        tooltip="Start with options: another flow, a first context, a shared context, or paused"
        icon={<ChevronDown size={14} />}
        disabled={!ready}
        onClick={() => setStartOpen(deps.shell, true)}
      />
    </div>
  );
}

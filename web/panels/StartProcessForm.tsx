import { useEffect, useId, useState, type FormEvent } from 'react';
import { parseJsonText } from '../../shared/jsonText.ts';
import { useDesigner } from '../designer/designerStore.ts';
import { firstContextOf, startProcess, useStartDeps, type StartContext } from './startProcess.ts';
import { useRuntimeState } from '../state/runtimeState.ts';
import { useRuntime } from '../state/runtimeConnection.ts';
import { useCapability } from '../state/useCapability.ts';
import { Button } from '../ui/Button.tsx';
import { Field } from '../ui/Field.tsx';
import { fieldControl } from '../ui/codeEditor/editorControl.ts';
import { JsonField } from '../ui/codeEditor/JsonField.tsx';
import { Play } from '../ui/icons.tsx';
import { Select } from '../ui/Select.tsx';

/**
 * Starts a process of a workspace flow (the one open, unless another is chosen) on a new
 * context, with a first value given as JSON (the flow's last one, or `{}`), or bound to the live
 * context of a process already started; paused, to step through it, if asked.
 */
export function StartProcessForm({ onStarted }: { onStarted?: (id: string) => void }) {
  const flows = useRuntimeState((s) => s.flows);
  const runtime = useRuntime();
  const ready = runtime !== undefined;
  const deps = useStartDeps();
  // Read when the form opens (the table holds only the rows in view): every process by id and
  // flow, no context.
  const [processes, setProcesses] = useState<{ id: string; flow: string }[]>([]);
  useEffect(() => {
    let live = true;
    void runtime?.processNames().then((names) => live && setProcesses(names));
    return () => {
      live = false;
    };
  }, [runtime]);
  const openId = useDesigner((s) => (s.open ? s.meta.id : undefined));
  const [flowId, setFlowId] = useState(() => openId ?? '');
  const chosen = flows.some((f) => f.id === flowId) ? flowId : (openId ?? flows[0]?.id ?? '');
  const [shareWith, setShareWith] = useState('');
  const [contextText, setContextText] = useState(() => firstContextOf(chosen));
  const [error, setError] = useState<string | undefined>();
  const [paused, setPaused] = useState(false);
  // A server runs a process until it waits: a start there cannot pause (docs/restate.md).
  const stepping = useCapability('stepping');
  const steppingNote = useId();
  const names = new Map(flows.map((f) => [f.id, f.name ?? f.id]));
  // A process chosen to share with is always one that exists.
  const sharing = processes.some((p) => p.id === shareWith) ? shareWith : '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    let context: StartContext;
    if (sharing) {
      context = { shareWith: sharing };
    } else {
      const parsed = parseJsonText(contextText);
      if (!parsed.ok) return setError(`The first context is not valid JSON: ${parsed.error}`);
      context = { text: contextText, value: parsed.value };
    }
    try {
      const id = await startProcess(deps, chosen, context, paused && stepping === true);
      setError(undefined);
      onStarted?.(id);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <form className="start-process" onSubmit={(e) => void submit(e)} aria-label="Start a process">
      <Field label="Flow">
        {(props) => (
          <Select
            {...props}
            value={chosen}
            onChange={(e) => {
              setFlowId(e.target.value);
              setContextText(firstContextOf(e.target.value));
            }}
          >
            {flows.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name ?? f.id}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Context">
        {(props) => (
          <Select {...props} value={sharing} onChange={(e) => setShareWith(e.target.value)}>
            <option value="">A new context</option>
            {processes.map((p) => (
              <option key={p.id} value={p.id}>
                Share the context of {p.id} ({names.get(p.flow) ?? p.flow})
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field
        label="Initial context (JSON)"
        hint={
          sharing
            ? `The new process reads and writes the live context of ${sharing}; it has no first value of its own.`
            : 'Prefilled with what this flow last started with.'
        }
        error={error}
      >
        {(props) => (
          <JsonField
            control={fieldControl(props)}
            rows={4}
            value={contextText}
            disabled={sharing !== ''}
            onChange={setContextText}
          />
        )}
      </Field>
      <label className="start-paused">
        <input
          type="checkbox"
          checked={paused && stepping === true}
          disabled={stepping !== true}
          aria-describedby={stepping === true ? undefined : steppingNote}
          onChange={(e) => setPaused(e.target.checked)}
        />{' '}
        Start paused, to step through it
      </label>
      {stepping !== true && (
        <p id={steppingNote} className="wf-unavailable">
          {stepping}
        </p>
      )}
      <div className="start-process__actions">
        <Button
          type="submit"
          variant="primary"
          icon={<Play size={14} aria-hidden="true" />}
          disabled={!ready || !chosen}
        >
          Start process
        </Button>
      </div>
    </form>
  );
}

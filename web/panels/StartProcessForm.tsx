import { useId, useState, type FormEvent } from 'react';
import { parseJsonText } from '../../shared/jsonText.ts';
import { useRuntimeState } from '../state/runtimeState.ts';
import { savePendingEdit } from '../workspace/workspaceActions.ts';

/**
 * Starts a process of a workspace flow on a new context, with a first value given as JSON, or
 * bound to the live context of a process already started.
 */
export function StartProcessForm() {
  const flows = useRuntimeState((s) => s.flows);
  const processes = useRuntimeState((s) => s.processes);
  const runtime = useRuntimeState((s) => s.runtime);
  const [flowId, setFlowId] = useState('');
  const [shareWith, setShareWith] = useState('');
  const [contextText, setContextText] = useState('{}');
  const [error, setError] = useState<string | undefined>();
  const [paused, setPaused] = useState(false);
  const ids = { flow: useId(), share: useId(), context: useId(), shared: useId(), error: useId() };
  const chosen = flowId || flows[0]?.id || '';
  const names = new Map(flows.map((f) => [f.id, f.name ?? f.id]));
  // A process chosen to share with is always one that exists.
  const sharing = processes.some((p) => p.id === shareWith) ? shareWith : '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!runtime || !chosen) return;
    let options: { context: unknown } | { shareContextWith: string };
    if (sharing) {
      options = { shareContextWith: sharing };
    } else {
      const parsed = parseJsonText(contextText);
      if (!parsed.ok) return setError(`The initial context is not valid JSON: ${parsed.error}`);
      options = { context: parsed.value };
    }
    try {
      // A flow just edited on the canvas starts as drawn, not as last autosaved.
      await savePendingEdit();
      await runtime.supervisor.start(chosen, { ...options, paused });
      setError(undefined);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <form className="start-process" onSubmit={(e) => void submit(e)} aria-label="Start a process">
      <label htmlFor={ids.flow}>Flow</label>
      <select id={ids.flow} value={chosen} onChange={(e) => setFlowId(e.target.value)}>
        {flows.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name ?? f.id}
          </option>
        ))}
      </select>
      <label htmlFor={ids.share}>Context</label>
      <select id={ids.share} value={sharing} onChange={(e) => setShareWith(e.target.value)}>
        <option value="">A new context</option>
        {processes.map((p) => (
          <option key={p.id} value={p.id}>
            Share the context of {p.id} ({names.get(p.flow) ?? p.flow})
          </option>
        ))}
      </select>
      <label htmlFor={ids.context}>Initial context (JSON)</label>
      <textarea
        id={ids.context}
        rows={3}
        spellCheck={false}
        value={contextText}
        disabled={sharing !== ''}
        aria-describedby={
          [sharing ? ids.shared : undefined, error ? ids.error : undefined]
            .filter(Boolean)
            .join(' ') || undefined
        }
        aria-invalid={error ? true : undefined}
        onChange={(e) => setContextText(e.target.value)}
      />
      {sharing && (
        <p id={ids.shared} className="hint">
          The new process reads and writes the live context of {sharing}; it has no first value of
          its own.
        </p>
      )}
      <label className="start-paused">
        <input type="checkbox" checked={paused} onChange={(e) => setPaused(e.target.checked)} />{' '}
        Start paused, to step through it
      </label>
      <button type="submit" disabled={!runtime || !chosen}>
        Start process
      </button>
      {error && (
        <p id={ids.error} role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}

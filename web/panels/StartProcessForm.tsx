import { useId, useState, type FormEvent } from 'react';
import { parseJsonText } from '../../shared/jsonText.ts';
import { useRuntimeState } from '../state/runtimeState.ts';

/** Starts a process of a workspace flow on a new context, with a first value given as JSON. */
export function StartProcessForm() {
  const flows = useRuntimeState((s) => s.flows);
  const runtime = useRuntimeState((s) => s.runtime);
  const [flowId, setFlowId] = useState('');
  const [contextText, setContextText] = useState('{}');
  const [error, setError] = useState<string | undefined>();
  const ids = { flow: useId(), context: useId(), error: useId() };
  const chosen = flowId || flows[0]?.id || '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!runtime || !chosen) return;
    const parsed = parseJsonText(contextText);
    if (!parsed.ok) return setError(`The initial context is not valid JSON: ${parsed.error}`);
    try {
      await runtime.supervisor.start(chosen, { context: parsed.value });
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
      <label htmlFor={ids.context}>Initial context (JSON)</label>
      <textarea
        id={ids.context}
        rows={3}
        spellCheck={false}
        value={contextText}
        aria-describedby={error ? ids.error : undefined}
        aria-invalid={error ? true : undefined}
        onChange={(e) => setContextText(e.target.value)}
      />
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

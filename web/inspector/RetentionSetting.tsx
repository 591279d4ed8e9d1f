import { useEffect, useId, useState, type FormEvent } from 'react';
import { useRuntimeState } from '../state/runtimeState.ts';

/**
 * The journal's retention rule, shown and set: the last N passes of each process are kept in
 * full, older ones summed up in one entry.
 */
export function RetentionSetting() {
  const runtime = useRuntimeState((s) => s.runtime);
  const [kept, setKept] = useState<number | undefined>();
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const ids = { input: useId(), problem: useId() };
  useEffect(() => {
    void runtime?.retention().then((n) => {
      setKept(n);
      setDraft(String(n));
    });
  }, [runtime]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!runtime) return;
    try {
      await runtime.setRetention(Number(draft));
      setKept(Number(draft));
      setProblem(undefined);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <form className="retention" aria-label="Journal retention" onSubmit={(e) => void submit(e)}>
      <label htmlFor={ids.input}>Passes kept in full</label>{' '}
      <input
        id={ids.input}
        type="number"
        min={1}
        step={1}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? ids.problem : undefined}
      />{' '}
      <button type="submit">Set</button>
      <p className="hint">
        The journal keeps each process’s last {kept ?? '…'} passes in full; older ones are summed up
        in one entry.
      </p>
      {problem && (
        <p id={ids.problem} className="error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

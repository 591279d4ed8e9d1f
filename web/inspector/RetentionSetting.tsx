import { memo, useEffect, useState, type FormEvent } from 'react';
import { useRuntime } from '../state/runtimeConnection.ts';
import { useCapability } from '../state/useCapability.ts';
import { Button } from '../ui/Button.tsx';
import { Field } from '../ui/Field.tsx';
import { Unavailable } from '../ui/Unavailable.tsx';

/**
 * The journal's retention rule, shown and set: the last N passes of each process are kept in
 * full, older ones summed up in one entry. A runtime that keeps its journal by its own rule
 * says so instead.
 */
export const RetentionSetting = memo(function RetentionSetting() {
  const capability = useCapability('retention');
  if (capability !== true) return <Unavailable reason={capability} />;
  return <RetentionForm />;
});

const RetentionForm = memo(function RetentionForm() {
  const runtime = useRuntime();
  const [kept, setKept] = useState<number | undefined>();
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
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
      <Field
        label="Passes kept in full"
        inline
        hint={`The journal keeps each process’s last ${kept ?? '…'} passes in full; older ones are summed up in one entry.`}
        error={problem}
      >
        {(control) => (
          <input
            {...control}
            className="wf-input"
            type="number"
            min={1}
            step={1}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
        )}
      </Field>
      <Button type="submit" size="sm">
        Set
      </Button>
    </form>
  );
});

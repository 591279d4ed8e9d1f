import { useId, useState } from 'react';
import { parseJsonText } from '../../shared/jsonText.ts';
import type { ContextChange } from '../../runtime/supervisor/records.ts';
import { labelledControl } from '../ui/codeEditor/editorControl.ts';
import { JsonField } from '../ui/codeEditor/JsonField.tsx';
import { LongText } from './LongText.tsx';
import { changesSinceSlept as sinceSlept } from '../runtime/leanReading.ts';
import { Button } from '../ui/Button.tsx';
import { useHandler } from '../ui/useHandler.ts';
import { Pencil } from '../ui/icons.tsx';
import { useAct } from './act.ts';
import { formatInstant } from './formatTime.ts';
import type { Inspection } from './inspectorState.ts';
import { useInspectionOf } from './useInspectionOf.ts';

/** The context changes since the process last fell asleep: what it will read as new when it wakes. */
export function changesSinceSlept(inspection: Inspection): ContextChange[] {
  return sinceSlept(inspection.changes, inspection.journal, inspection.record.id);
}

const who = (c: ContextChange) =>
  c.process === null ? 'written from outside' : `by ${c.process}, node ${c.node}`;

/**
 * The live context document, what changed since this process last slept and who wrote it, and
 * an editor for it (checked JSON; saved by compare-and-set, so another writer's change is kept).
 */
export function ContextPanel() {
  const inspection = useInspectionOf(['record', 'context', 'changes', 'journal']);
  const { record, context } = inspection;
  const act = useAct();
  const [draft, setDraft] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const ids = { editor: useId(), problem: useId() };
  const recent = changesSinceSlept(inspection);
  const text = JSON.stringify(context.value, null, 2);

  // Stable: the button does not render each time the context it copies changes.
  const edit = useHandler(() => setDraft(text));
  const save = async () => {
    if (draft === undefined) return;
    const parsed = parseJsonText(draft);
    if (!parsed.ok) return setProblem(`Not saved: ${parsed.error}`);
    if (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
      return setProblem('Not saved: a context is a JSON object');
    }
    setProblem(undefined);
    if (await act((r) => r.processes.replaceContext(record.id, parsed.value))) setDraft(undefined);
  };

  return (
    <section className="inspector-panel" aria-labelledby="context-heading">
      <h3 id="context-heading">
        Context <span className="hint">version {context.version}, live</span>
      </h3>
      {recent.length > 0 && (
        <div className="changed-since" role="note" aria-label="Changed since this process slept">
          <p>Changed since {record.id} last slept:</p>
          <ul>
            {recent.map((c) => (
              <li key={c.version}>
                {c.writes.map((w) => w.path || '(the whole document)').join(', ')} — {who(c)}, at{' '}
                {formatInstant(c.at)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {draft === undefined ? (
        <>
          <LongText aria-label="Live context" text={text} />
          <Button
            size="sm"
            icon={<Pencil size={14} aria-hidden="true" />}
            tooltip="Edit the live context: saved only if no one wrote it meanwhile"
            onClick={edit}
          >
            Edit context
          </Button>
        </>
      ) : (
        <>
          <label htmlFor={ids.editor} id={`${ids.editor}-label`}>
            Context (JSON)
          </label>
          <JsonField
            control={labelledControl(ids.editor, problem && ids.problem)}
            rows={draft.split('\n').length + 1}
            value={draft}
            onChange={setDraft}
          />
          {problem && (
            <p id={ids.problem} role="alert" className="error">
              {problem}
            </p>
          )}
          <Button size="sm" variant="primary" onClick={() => void save()}>
            Save context
          </Button>
          <Button size="sm" onClick={() => (setDraft(undefined), setProblem(undefined))}>
            Cancel
          </Button>
        </>
      )}
    </section>
  );
}

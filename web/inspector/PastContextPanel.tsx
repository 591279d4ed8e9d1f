import { useEffect, useId, useState } from 'react';
import type { PastContext, PastWrite } from '../../runtime/supervisor/pastContext.ts';
import type { ForkOrigin } from '../../runtime/supervisor/records.ts';
import { useRuntimeConnection } from '../state/runtimeConnection.ts';
import { useCapability } from '../state/useCapability.ts';
import { Button } from '../ui/Button.tsx';
import { Unavailable } from '../ui/Unavailable.tsx';
import { useAct } from './act.ts';
import { formatInstant } from './formatTime.ts';
import { selectProcess, useInspectorStore } from './inspectorState.ts';
import { seqOf } from './journalKinds.ts';
import { useInspectionOf } from './useInspectionOf.ts';

const text = (v: unknown) => (v === undefined ? '(none)' : JSON.stringify(v));
const who = (w: PastWrite) =>
  w.process === null ? 'written from outside' : `by ${w.process}, node ${w.node ?? '?'}`;

/**
 * The context as of the journal entry shown (the one that keeps the position drawn), rebuilt by
 * the runtime's worker from the journal's writes and marked as past, with each write that led to
 * it (old → new, and who wrote it); and "Fork from here", which starts a new process of the same
 * flow at that position, on a copy of this context or on the live one.
 */
export function PastContextPanel() {
  const inspection = useInspectionOf(['record', 'shown', 'journal']);
  const { record, journal, shown } = inspection;
  const kept = shown.entry === undefined ? undefined : journal[shown.entry];
  const seq = kept && seqOf(kept);
  const connection = useRuntimeConnection();
  const inspector = useInspectorStore();
  const act = useAct();
  const [past, setPast] = useState<{ seq: number; context: PastContext } | undefined>();
  const [on, setOn] = useState<ForkOrigin['context']>('past');
  const forkable = useCapability('fork');
  const ids = { heading: useId(), choice: useId() };

  useEffect(() => {
    const runtime = connection.current;
    if (seq === undefined || !runtime) return;
    let current = true;
    void runtime.pastContext(record.id, seq).then((context) => {
      if (current) setPast({ seq, context });
    });
    return () => {
      current = false;
    };
  }, [connection, record.id, seq]);

  if (!kept) return null;
  if (seq === undefined) {
    return (
      <section className="inspector-panel snapshot-past" aria-labelledby={ids.heading}>
        <h3 id={ids.heading}>Context as of then</h3>
        <p role="status">This entry is not saved yet; its context can be read once it is.</p>
      </section>
    );
  }
  const context = past?.seq === seq ? past.context : undefined;
  const canPast = context?.ok === true;
  const choice = canPast ? on : 'live';

  // The fork is selected before the control's reading, so that the reading shows it.
  const fork = () =>
    act(async (r) => {
      selectProcess(inspector, (await r.processes.fork(record.id, { seq, context: choice })).id);
    });

  return (
    <section className="inspector-panel snapshot-past" aria-labelledby={ids.heading}>
      <h3 id={ids.heading}>
        Context as of {formatInstant(kept.at)}{' '}
        {context?.ok && <span className="hint">version {context.version}, past</span>}
      </h3>
      {!context ? (
        <p role="status">Rebuilding the context as of then…</p>
      ) : !context.ok ? (
        <p role="status">The context as of then cannot be rebuilt: {context.problem}.</p>
      ) : (
        <>
          <pre aria-label="Past context">{JSON.stringify(context.value, null, 2)}</pre>
          {context.writes.length > 0 && (
            <ol aria-label="Writes up to then" className="past-writes">
              {context.writes.map((w, i) => (
                <li key={i}>
                  <code>{w.path || '(the whole document)'}</code>: {text(w.before)} →{' '}
                  {text(w.after)} — {who(w)}, at {formatInstant(w.at)}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
      {forkable !== true ? (
        <Unavailable reason={forkable} />
      ) : (
        <fieldset className="fork">
          <legend>Fork from here, on</legend>
          <label>
            <input
              type="radio"
              name={ids.choice}
              checked={choice === 'past'}
              disabled={!canPast}
              onChange={() => setOn('past')}
            />{' '}
            a copy of the context as of then
          </label>
          <label>
            <input
              type="radio"
              name={ids.choice}
              checked={choice === 'live'}
              onChange={() => setOn('live')}
            />{' '}
            the context now (shared with {record.id})
          </label>
          <Button
            size="sm"
            variant="primary"
            tooltip="Start a new process of this flow at this position"
            onClick={() => void fork()}
          >
            Fork from here
          </Button>
        </fieldset>
      )}
    </section>
  );
}

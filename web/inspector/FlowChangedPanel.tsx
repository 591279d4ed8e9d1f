import { useEffect, useState } from 'react';
import { useRuntimeState } from '../state/runtimeState.ts';
import { act } from './act.ts';
import type { Inspection } from './inspectorState.ts';

const CHOICES = [
  [
    'continue',
    'Continue on the new flow',
    'go on from the same position with the flow as it is now',
  ],
  ['keep', 'Keep the old version', 'go on with the version the process started on, and stay on it'],
  ['restart', 'Restart', 'start again from start of the flow as it is now, on the same context'],
  ['cancel', 'Cancel the process', 'end it here'],
] as const;

/** A process whose flow changed while it slept: what changed, and the designer's four choices. */
export function FlowChangedPanel({ inspection }: { inspection: Inspection }) {
  const { record } = inspection;
  const [continueProblem, setContinueProblem] = useState<string | undefined>();
  useEffect(() => {
    const runtime = useRuntimeState.getState().runtime;
    if (!runtime || record.status !== 'flow-changed') return;
    void runtime.supervisor.continueProblem(record.id).then(setContinueProblem);
  }, [record]);
  if (record.status !== 'flow-changed') return null;
  return (
    <section className="inspector-panel flow-changed" aria-labelledby="changed-heading">
      <h3 id="changed-heading">The flow changed while {record.id} slept</h3>
      {record.error && <p>{record.error}</p>}
      <ul aria-label="Changes">
        {record.changes.map((c) => (
          <li key={`${c.flow}/${c.item}/${c.id}`} className={`change-${c.change}`}>
            {c.item} {c.id || '(order)'} {c.change}
            {c.flow !== record.flow ? ` in ${c.flow}` : ''}
          </li>
        ))}
      </ul>
      <div role="group" aria-label="Resolve the change">
        {CHOICES.map(([choice, label, what]) => {
          const refused = choice === 'continue' ? continueProblem : undefined;
          return (
            <p key={choice}>
              <button
                type="button"
                disabled={refused !== undefined}
                aria-describedby={`choice-${choice}`}
                onClick={() => void act((r) => r.supervisor.resolve(record.id, choice))}
              >
                {label}
              </button>{' '}
              <span id={`choice-${choice}`} className="hint">
                {refused ? `Unavailable: ${refused}` : what}
              </span>
            </p>
          );
        })}
      </div>
    </section>
  );
}

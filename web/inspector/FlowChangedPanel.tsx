import { useEffect, useState } from 'react';
import type { ResolveChoice } from '../../runtime/supervisor/controls.ts';
import { useRuntimeState } from '../state/runtimeState.ts';
import { useRuntimeConnection } from '../state/runtimeConnection.ts';
import { useFlowCounts } from '../state/useFlowCounts.ts';
import { Button } from '../ui/Button.tsx';
import { notify } from '../ui/Toast.tsx';
import { useAct } from './act.ts';
import { changeDetails } from './changeDetails.ts';
import { useInspectionOf } from './useInspectionOf.ts';

const CHOICES = [
  [
    'continue',
    'Continue on the new flow',
    'go on from the same position with the flow as it is now',
  ],
  ['keep', 'Keep the old version', 'go on with the version the process started on, and stay on it'],
  ['restart', 'Restart', 'start again from start of the flow as it is now, on the same context'],
  ['cancel', 'Cancel the process', 'end it here'],
] as const satisfies readonly (readonly [ResolveChoice, string, string])[];

/**
 * A process whose flow changed while it slept: what changed, old value and new, and the
 * designer's four choices, for this process or for every one of its flow that asks the same.
 */
export function FlowChangedPanel() {
  const inspection = useInspectionOf(['record', 'diffs', 'flows']);
  const { record } = inspection;
  const [continueProblem, setContinueProblem] = useState<string | undefined>();
  const current = useRuntimeState((s) => s.flows);
  const act = useAct();
  const connection = useRuntimeConnection();
  // Every process of the same flow that asks what to do, this one included.
  const asking = useFlowCounts(record.flow).byStatus['flow-changed'] ?? 0;
  useEffect(() => {
    const runtime = connection.current;
    if (!runtime || record.status !== 'flow-changed') return;
    void runtime.processes.continueProblem(record.id).then(setContinueProblem);
  }, [record, connection]);
  if (record.status !== 'flow-changed') return null;

  const resolveAll = (choice: ResolveChoice) =>
    act(async (r) => {
      const ids = await r.processIds(record.flow, 'flow-changed');
      const refused: string[] = [];
      for (const id of ids) {
        try {
          await r.processes.resolve(id, choice);
        } catch (e) {
          refused.push(`${id}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      // A toast, not this panel: the panel goes once the process it shows is resolved.
      const done = ids.length - refused.length;
      if (done > 0) notify.done(`${done} of ${ids.length} processes resolved`);
      if (refused.length > 0) notify.failed(`${refused.length} refused: ${refused.join('; ')}`);
    });

  return (
    <section className="inspector-panel flow-changed" aria-labelledby="changed-heading">
      <h3 id="changed-heading">The flow changed while {record.id} slept</h3>
      {record.error && <p>{record.error}</p>}
      <ul aria-label="Changes">
        {record.changes.map((c) => {
          const details = changeDetails(
            c,
            inspection.flows.get(c.flow),
            current.find((f) => f.id === c.flow),
          );
          return (
            <li key={`${c.flow}/${c.item}/${c.id}`} className={`change-${c.change}`}>
              {c.item} {c.id || '(order)'} {c.change}
              {c.flow !== record.flow ? ` in ${c.flow}` : ''}
              {details.length > 0 && (
                <ul>
                  {details.map((d) => (
                    <li key={d.what}>
                      {d.what}: <code>{d.before}</code> → <code>{d.after}</code>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      <div role="group" aria-label="Resolve the change">
        {CHOICES.map(([choice, label, what]) => {
          const refused = choice === 'continue' ? continueProblem : undefined;
          return (
            <p key={choice}>
              <Button
                size="sm"
                variant={choice === 'continue' ? 'primary' : 'secondary'}
                disabled={refused !== undefined}
                aria-describedby={`choice-${choice}`}
                onClick={() => void act((r) => r.processes.resolve(record.id, choice))}
              >
                {label}
              </Button>{' '}
              <span id={`choice-${choice}`} className="hint">
                {refused ? `Unavailable: ${refused}` : what}
              </span>
            </p>
          );
        })}
      </div>
      {asking > 1 && (
        <div role="group" aria-label={`Resolve all ${asking} processes of this flow`}>
          <h4>All {asking} processes of this flow that ask</h4>
          {CHOICES.map(([choice, label]) => (
            <Button
              key={choice}
              size="sm"
              variant="ghost"
              tooltip={`${label}, for each of the ${asking} processes; any refused is listed`}
              onClick={() => void resolveAll(choice)}
            >
              {label} (all {asking})
            </Button>
          ))}
        </div>
      )}
    </section>
  );
}

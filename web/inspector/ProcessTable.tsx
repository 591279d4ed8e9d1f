import { useMemo, useState } from 'react';
import { useRuntimeState, type ProcessView } from '../state/runtimeState.ts';
import { refreshInspection, selectProcess, useInspector } from './inspectorState.ts';
import { openWorkspaceFlow } from '../workspace/workspaceActions.ts';
import { useFlowNames } from '../workspace/useFlowNames.ts';
import { Select } from '../ui/Select.tsx';
import { Countdown } from './Countdown.tsx';

const STATUSES = [
  'running',
  'waiting',
  'done',
  'failed',
  'stopped',
  'flow-changed',
  'cancelled',
] as const;

/** Every process by flow, status and due time, with counts per status and a filter. */
export function ProcessTable() {
  const processes = useRuntimeState((s) => s.processes);
  const flows = useFlowNames();
  const selected = useInspector((s) => s.selected);
  const [filter, setFilter] = useState<string>('all');
  const names = useMemo(() => new Map(flows.map((f) => [f.id, f.name])), [flows]);
  const counts = useMemo(() => {
    const c = new Map<string, number>();
    for (const p of processes) c.set(p.status, (c.get(p.status) ?? 0) + 1);
    return c;
  }, [processes]);
  const shown = processes.filter((p) => filter === 'all' || p.status === filter);

  const choose = (p: ProcessView) => {
    selectProcess(p.id);
    // Its position is drawn on the canvas of its flow.
    if (flows.some((f) => f.id === p.flow)) void openWorkspaceFlow(p.flow);
    const runtime = useRuntimeState.getState().runtime;
    if (runtime) void refreshInspection(runtime);
  };

  return (
    <div className="process-table">
      <div className="process-table__head">
        <label className="process-table__filter">
          <span className="visually-hidden">Show</span>
          <Select value={filter} onChange={(e) => setFilter(e.target.value)}>
            <option value="all">all processes ({processes.length})</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s} ({counts.get(s) ?? 0})
              </option>
            ))}
          </Select>
        </label>
        <p className="counts">
          {STATUSES.filter((s) => counts.has(s)).map((s) => (
            <span key={s} className={`status-pill status-${s}`}>
              {s} {counts.get(s)}
            </span>
          ))}
        </p>
      </div>
      {shown.length === 0 ? (
        <p className="empty">
          {filter === 'all'
            ? 'No processes yet. Press Start in the top bar to run the flow on the canvas.'
            : `No process is ${filter}.`}
        </p>
      ) : (
        <table aria-label="Processes">
          <thead>
            <tr>
              <th scope="col">Process</th>
              <th scope="col">Flow</th>
              <th scope="col">Status</th>
              <th scope="col">Due</th>
              <th scope="col">Wakes</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((p) => (
              <tr
                key={p.id}
                aria-selected={p.id === selected}
                className={p.id === selected ? 'selected' : undefined}
              >
                <th scope="row">
                  <button
                    type="button"
                    onClick={() => choose(p)}
                    aria-label={`Inspect process ${p.id}`}
                  >
                    {p.id}
                  </button>
                </th>
                <td>{names.get(p.flow) ?? p.flow}</td>
                <td>
                  <span className={`status-pill status-${p.status}`}>{p.status}</span>
                </td>
                <td>{p.due === null ? '—' : <Countdown due={p.due} />}</td>
                <td>{p.wakes}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

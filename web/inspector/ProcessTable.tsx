import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useMemo, useRef, useState } from 'react';
import { useRuntimeState, type ProcessView } from '../state/runtimeState.ts';
import { refreshInspection, selectProcess, useInspector } from './inspectorState.ts';
import { openWorkspaceFlow } from '../workspace/workspaceActions.ts';
import { useFlowNames } from '../workspace/useFlowNames.ts';
import { Select } from '../ui/Select.tsx';
import { Countdown } from './Countdown.tsx';
import { PROCESS_STATUSES } from '../../runtime/supervisor/records.ts';

const STATUSES = PROCESS_STATUSES;

/** One row's height: fixed, so that the table knows its length without drawing every row. */
export const PROCESS_ROW_PX = 29;

/**
 * Every process by flow, status and due time, with counts per status and a filter. Only the
 * rows in view are in the DOM (and a few around them), with space above and below for the rest,
 * so that 10,000 processes scroll as smoothly as ten.
 */
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
  const shown = useMemo(
    () => (filter === 'all' ? processes : processes.filter((p) => p.status === filter)),
    [processes, filter],
  );
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => PROCESS_ROW_PX,
    getItemKey: (i) => shown[i]!.id,
    overscan: 8,
  });
  const rows = virtualizer.getVirtualItems();
  const above = rows[0]?.start ?? 0;
  const below = virtualizer.getTotalSize() - (rows.at(-1)?.end ?? 0);

  const choose = useCallback(
    (p: ProcessView) => {
      selectProcess(p.id);
      // Its position is drawn on the canvas of its flow.
      if (flows.some((f) => f.id === p.flow)) void openWorkspaceFlow(p.flow);
      const runtime = useRuntimeState.getState().runtime;
      if (runtime) void refreshInspection(runtime);
    },
    [flows],
  );

  return (
    <div className="process-table" ref={scroller}>
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
        <table aria-label="Processes" aria-rowcount={shown.length + 1}>
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
            {above > 0 && <tr aria-hidden="true" style={{ height: above }} />}
            {rows.map((row) => {
              const p = shown[row.index]!;
              return (
                <ProcessRow
                  key={p.id}
                  process={p}
                  flowName={names.get(p.flow) ?? p.flow}
                  selected={p.id === selected}
                  position={row.index + 1}
                  onChoose={choose}
                />
              );
            })}
            {below > 0 && <tr aria-hidden="true" style={{ height: below }} />}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** A row redraws only when its process, its flow's name or its selection changed. */
const ProcessRow = memo(function ProcessRow({
  process: p,
  flowName,
  selected,
  position,
  onChoose,
}: {
  process: ProcessView;
  flowName: string;
  selected: boolean;
  position: number;
  onChoose: (p: ProcessView) => void;
}) {
  return (
    <tr
      aria-selected={selected}
      aria-rowindex={position + 1}
      className={selected ? 'selected' : undefined}
      style={{ height: PROCESS_ROW_PX }}
    >
      <th scope="row">
        <button type="button" onClick={() => onChoose(p)} aria-label={`Inspect process ${p.id}`}>
          {p.id}
        </button>
      </th>
      <td>{flowName}</td>
      <td>
        <span className={`status-pill status-${p.status}`}>{p.status}</span>
      </td>
      <td>{p.due === null ? '—' : <Countdown due={p.due} />}</td>
      <td>{p.wakes}</td>
    </tr>
  );
});

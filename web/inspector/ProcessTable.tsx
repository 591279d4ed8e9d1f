import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import {
  showListWindow,
  useRuntimeState,
  useRuntimeStateStore,
  type ProcessView,
} from '../state/runtimeState.ts';
import { useRuntimeConnection } from '../state/runtimeConnection.ts';
import {
  refreshInspection,
  selectProcess,
  useInspector,
  useInspectorStores,
} from './inspectorState.ts';
import { useWorkspaceActions } from '../workspace/workspaceActions.ts';
import { useFlowNames } from '../workspace/useFlowNames.ts';
import { Select } from '../ui/Select.tsx';
import { Countdown } from './Countdown.tsx';
import { PROCESS_STATUSES, type ProcessStatus } from '../../runtime/supervisor/records.ts';

const STATUSES = PROCESS_STATUSES;

/** One row's height: fixed, so that the table knows its length without drawing every row. */
export const PROCESS_ROW_PX = 29;

/** Rows read beyond those in view on each side, so that a short scroll needs no new read. */
const WINDOW_MARGIN = 30;
/** Rows read at first, before the table has measured its view. */
const FIRST_ROWS = 60;

/**
 * Every process by flow, status and due time, with counts per status and a filter. Only the
 * rows in view are in the DOM (and a few around them), with space above and below for the rest,
 * and only those and a margin around them are read from the worker (a window, by order of
 * creation), so that 10,000 processes scroll as smoothly as ten and cost the page no more.
 */
export function ProcessTable() {
  const list = useRuntimeState((s) => s.list);
  const filter = useRuntimeState((s) => s.listQuery.status ?? 'all');
  const flows = useFlowNames();
  const selected = useInspector((s) => s.selected);
  const runtimeState = useRuntimeStateStore();
  const connection = useRuntimeConnection();
  const stores = useInspectorStores();
  const workspace = useWorkspaceActions();
  const names = useMemo(() => new Map(flows.map((f) => [f.id, f.name])), [flows]);
  const counts = list.counts.byStatus;
  // The rows read are those of the query last answered; its filter is the one shown.
  const shownFilter = list.query.status ?? 'all';
  const total = shownFilter === filter ? list.total : 0;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => PROCESS_ROW_PX,
    overscan: 8,
  });
  const rows = virtualizer.getVirtualItems();
  const above = rows[0]?.start ?? 0;
  const below = virtualizer.getTotalSize() - (rows.at(-1)?.end ?? 0);
  const rowAt = (index: number) => list.rows[index - list.query.offset];

  // The rows in view and around them are asked of the worker; the rest are never read.
  const first = rows[0]?.index ?? 0;
  const last = rows.at(-1)?.index ?? 0;
  const { offset, limit } = list.query;
  // While a new filter's first window is read, the old one's rows are not asked for again.
  const covered = shownFilter !== filter || (first >= offset && last < offset + limit);
  useEffect(() => {
    if (covered) return;
    const from = Math.max(0, first - WINDOW_MARGIN);
    showListWindow(runtimeState, connection.current, {
      offset: from,
      limit: last - from + 1 + WINDOW_MARGIN,
      ...(filter === 'all' ? {} : { status: filter as ProcessStatus }),
    });
  }, [covered, first, last, filter, runtimeState, connection]);
  const setFilter = (status: string) =>
    showListWindow(runtimeState, connection.current, {
      offset: 0,
      limit: Math.max(limit, FIRST_ROWS),
      ...(status === 'all' ? {} : { status: status as ProcessStatus }),
    });

  // The process selected (a new one started, one chosen or restored) is scrolled into view once:
  // at its row when the window read holds it, else at the end, where a new process is listed.
  const scrolledTo = useRef<{ id: string; toEnd: boolean } | undefined>(undefined);
  useEffect(() => {
    if (!selected || total === 0 || shownFilter !== filter) return;
    const at = list.rows.findIndex((p) => p.id === selected);
    const was = scrolledTo.current?.id === selected ? scrolledTo.current : undefined;
    if (at >= 0) {
      if (was && !was.toEnd) return;
      virtualizer.scrollToIndex(list.query.offset + at, { align: 'auto' });
      scrolledTo.current = { id: selected, toEnd: false };
    } else if (!was && filter === 'all') {
      virtualizer.scrollToIndex(total - 1, { align: 'end' });
      scrolledTo.current = { id: selected, toEnd: true };
    }
  }, [selected, list, total, filter, shownFilter, virtualizer]);

  const choose = useCallback(
    (p: ProcessView) => {
      selectProcess(stores.inspector, p.id);
      // Its position is drawn on the canvas of its flow.
      if (flows.some((f) => f.id === p.flow)) void workspace.openWorkspaceFlow(p.flow);
      const runtime = connection.current;
      if (runtime) void refreshInspection(stores, runtime);
    },
    [flows, stores, workspace, connection],
  );

  return (
    <div className="process-table" ref={scroller}>
      <div className="process-table__head">
        <label className="process-table__filter">
          <span className="visually-hidden">Show</span>
          <Select value={filter} onChange={(e) => setFilter(e.target.value)}>
            <option value="all">all processes ({list.counts.total})</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s} ({counts[s] ?? 0})
              </option>
            ))}
          </Select>
        </label>
        <p className="counts">
          {STATUSES.filter((s) => counts[s] !== undefined).map((s) => (
            <span key={s} className={`status-pill status-${s}`}>
              {s} {counts[s]}
            </span>
          ))}
        </p>
      </div>
      {total === 0 ? (
        <p className="empty">
          {filter === 'all'
            ? 'No processes yet. Press Start in the top bar to run the flow on the canvas.'
            : `No process is ${filter}.`}
        </p>
      ) : (
        <table aria-label="Processes" aria-rowcount={total + 1}>
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
              const p = rowAt(row.index);
              // Not read yet (scrolled past the window): its place, until the worker answers.
              if (!p)
                return (
                  <tr
                    key={`row-${row.index}`}
                    aria-rowindex={row.index + 2}
                    aria-busy="true"
                    style={{ height: PROCESS_ROW_PX }}
                  >
                    <td colSpan={5} />
                  </tr>
                );
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

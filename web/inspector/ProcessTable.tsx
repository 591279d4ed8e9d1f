import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import {
  sameRows,
  showListWindow,
  useRuntimeState,
  useRuntimeStateStore,
  type ProcessView,
} from '../state/runtimeState.ts';
import type { ListQuery } from '../runtime/runtimeProtocol.ts';
import type { ProcessOrder, ProcessOrderBy } from '../../runtime/supervisor/store.ts';
import { useRuntimeConnection } from '../state/runtimeConnection.ts';
import {
  refreshInspection,
  selectProcess,
  useInspector,
  useInspectorStores,
} from './inspectorState.ts';
import { useWorkspaceActions } from '../workspace/workspaceActions.ts';
import { useFlowNames } from '../workspace/useFlowNames.ts';
import { useHandler } from '../ui/useHandler.ts';
import { Select } from '../ui/Select.tsx';
import { Countdown } from './Countdown.tsx';
import { formatInstant } from './formatTime.ts';
import { STATUS_HINTS } from './statusLabel.ts';
import { TableSearch } from './TableSearch.tsx';
import { nextOrder, searchOf, sortHint, withFlows } from './tableQuery.ts';
import { ArrowDown, ArrowUp, ArrowUpDown } from '../ui/icons.tsx';
import { PROCESS_STATUSES, type ProcessStatus } from '../../runtime/supervisor/records.ts';

const STATUSES = PROCESS_STATUSES;

/** One row's height: fixed, so that the table knows its length without drawing every row. */
export const PROCESS_ROW_PX = 29;

/** Rows read beyond those in view on each side, so that a short scroll needs no new read. */
const WINDOW_MARGIN = 30;
/** Rows read at first, before the table has measured its view. */
const FIRST_ROWS = 60;

/** The table's columns: what each sorts by, and its header (their widths: inspector.css). */
const COLUMNS: { by: ProcessOrderBy; label: string }[] = [
  { by: 'id', label: 'Process' },
  { by: 'flow', label: 'Flow' },
  { by: 'status', label: 'Status' },
  { by: 'due', label: 'Due' },
  { by: 'wakes', label: 'Wakes' },
];

/**
 * Every process by flow, status and due time, with counts per status, a filter, a search, and
 * a sort by any column. Only the rows in view are in the DOM (and a few around them), with
 * space above and below for the rest, and only those and a margin around them are read from
 * the worker (a window, in order of creation or the column's), so that 10,000 processes scroll
 * as smoothly as ten and cost the page no more.
 */
export function ProcessTable() {
  const list = useRuntimeState((s) => s.list);
  const filter = useRuntimeState((s) => s.listQuery.status ?? 'all');
  const order = useRuntimeState((s) => s.listQuery.order);
  const search = useRuntimeState((s) => s.listQuery.search);
  const flows = useFlowNames();
  const selected = useInspector((s) => s.selected);
  const runtimeState = useRuntimeStateStore();
  const connection = useRuntimeConnection();
  const stores = useInspectorStores();
  const workspace = useWorkspaceActions();
  const names = useMemo(() => new Map(flows.map((f) => [f.id, f.name])), [flows]);
  const counts = list.counts.byStatus;
  // The rows read are those of the query last answered; its filter and search are the ones
  // shown. A new order lists the same rows: the table stays (and its header keeps the focus)
  // while they are read in it.
  const shownQuery = useRuntimeState((s) => sameRows(s.list.query, s.listQuery));
  const total = shownQuery ? list.total : 0;
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
  // Asks for another window of the listing, or the first of another filter, order or search.
  const ask = useCallback(
    (change: Partial<ListQuery>) => {
      const next: ListQuery = { ...runtimeState.getState().listQuery, ...change };
      // A key left undefined is no filter: gone, so that two alike queries compare alike.
      for (const key of ['status', 'order', 'search'] as const)
        if (next[key] === undefined) delete next[key];
      showListWindow(runtimeState, connection.current, next);
    },
    [runtimeState, connection],
  );
  const firstWindow = { offset: 0, limit: Math.max(limit, FIRST_ROWS) };
  // While a new filter's first window is read, the old one's rows are not asked for again.
  const covered = !shownQuery || (first >= offset && last < offset + limit);
  useEffect(() => {
    if (covered) return;
    const from = Math.max(0, first - WINDOW_MARGIN);
    ask({ offset: from, limit: last - from + 1 + WINDOW_MARGIN });
  }, [covered, first, last, ask]);
  const setFilter = (status: string) =>
    ask({ ...firstWindow, status: status === 'all' ? undefined : (status as ProcessStatus) });
  // Stable handlers, so that the headers and the search box (memoized) do not render on a wake.
  const sortBy = useHandler((by: ProcessOrderBy) => {
    ask({ ...firstWindow, order: nextOrder(order, by, flows) });
    virtualizer.scrollToOffset(0);
  });
  const searchFor = useHandler((text: string) => {
    ask({ ...firstWindow, search: searchOf(text, flows) });
    virtualizer.scrollToOffset(0);
  });
  // The flows' names are the page's: when one changes, the order by flow and the flows a search
  // names are asked for again.
  useEffect(() => {
    const { listQuery } = runtimeState.getState();
    const change: Partial<ListQuery> = {};
    if (listQuery.order?.by === 'flow') {
      const again = withFlows(listQuery.order, flows);
      if (JSON.stringify(again) !== JSON.stringify(listQuery.order)) change.order = again;
    }
    if (listQuery.search) {
      const again = searchOf(listQuery.search.text, flows);
      if (JSON.stringify(again) !== JSON.stringify(listQuery.search)) change.search = again;
    }
    if (Object.keys(change).length) ask(change);
  }, [flows, runtimeState, ask]);

  // The process selected (a new one started, one chosen or restored) is scrolled into view once:
  // at its row when the window read holds it, else at the end, where a new process is listed.
  const scrolledTo = useRef<{ id: string; toEnd: boolean } | undefined>(undefined);
  // (Sorted or searched, a new process may be anywhere: it is scrolled to once its row is read.)
  const newAtEnd =
    filter === 'all' && !search && (!order || (order.by === 'created' && !order.desc));
  useEffect(() => {
    if (!selected || total === 0 || !shownQuery) return;
    const at = list.rows.findIndex((p) => p.id === selected);
    const was = scrolledTo.current?.id === selected ? scrolledTo.current : undefined;
    if (at >= 0) {
      if (was && !was.toEnd) return;
      virtualizer.scrollToIndex(list.query.offset + at, { align: 'auto' });
      scrolledTo.current = { id: selected, toEnd: false };
    } else if (!was && newAtEnd) {
      virtualizer.scrollToIndex(total - 1, { align: 'end' });
      scrolledTo.current = { id: selected, toEnd: true };
    }
  }, [selected, list, total, newAtEnd, shownQuery, virtualizer]);

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
        <TableSearch onSearch={searchFor} />
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
        {search && shownQuery && (
          <p className="process-table__found" role="status">
            {total} of {list.all} {list.all === 1 ? 'process' : 'processes'}
          </p>
        )}
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
          {search
            ? `No ${filter === 'all' ? '' : `${filter} `}process matches “${search.text}”.`
            : filter === 'all'
              ? 'No processes yet. Press Start in the top bar to run the flow on the canvas.'
              : `No process is ${filter}.`}
        </p>
      ) : (
        <table aria-label="Processes" aria-rowcount={total + 1}>
          <colgroup>
            {COLUMNS.map((c) => (
              <col key={c.by} className={`process-table__col-${c.by}`} />
            ))}
          </colgroup>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <SortHeader key={c.by} {...c} order={order} onSort={sortBy} />
              ))}
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

/**
 * A column's header: a button that sorts by it (ascending, descending, then back to the order
 * of creation), and `aria-sort` on the header cell says how it is sorted now.
 */
const SortHeader = memo(function SortHeader({
  by,
  label,
  order,
  onSort,
}: {
  by: ProcessOrderBy;
  label: string;
  order: ProcessOrder | undefined;
  onSort: (by: ProcessOrderBy) => void;
}) {
  const sorted = order?.by === by ? (order.desc ? 'descending' : 'ascending') : undefined;
  const Arrow =
    sorted === 'ascending' ? ArrowUp : sorted === 'descending' ? ArrowDown : ArrowUpDown;
  const hint = sortHint(order, by, label);
  return (
    <th scope="col" aria-sort={sorted ?? 'none'}>
      <button
        type="button"
        className={`process-table__sort${sorted ? ' process-table__sort--on' : ''}`}
        onClick={() => onSort(by)}
        title={hint}
      >
        <span className="process-table__sort-label">{label}</span>
        <Arrow size={12} aria-hidden="true" className="process-table__sort-icon" />
      </button>
    </th>
  );
});

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
        <button
          type="button"
          onClick={() => onChoose(p)}
          aria-label={`Inspect process ${p.id}`}
          title={p.id}
        >
          {p.id}
        </button>
      </th>
      <td title={flowName}>{flowName}</td>
      <td>
        <span className={`status-pill status-${p.status}`} title={STATUS_HINTS[p.status]}>
          {p.status}
        </span>
      </td>
      <td title={p.due === null ? undefined : formatInstant(p.due)}>
        {p.due === null ? '—' : <Countdown due={p.due} short />}
      </td>
      <td>{p.wakes}</td>
    </tr>
  );
});

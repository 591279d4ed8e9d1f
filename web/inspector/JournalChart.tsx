import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import { rovingIndex } from '../ui/rovingIndex.ts';
import { formatInstant } from './formatTime.ts';
import { journalChart } from './journalChart.ts';
import { timeTicks } from './timeAxis.ts';

const ROW = 22;
const LEFT = 112;
const RIGHT = 12;
const AXIS = 22;
/** One tick label's room, so that labels never overlap. */
const TICK_ROOM = 72;

const optionId = (entry: number) => `chart-${entry}`;
const genNote = (g: string) => (g ? `, generation ${g}` : '');

/** The width of an element in CSS pixels, following it as the panel is resized. */
function useWidth<T extends Element>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => setWidth(entry!.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/**
 * The journal as a chart: time along a labelled axis, nodes down, a mark per run (coloured as
 * ran, its generation in its name) and a bar per wait (coloured as waited). Drawn at the panel's
 * own width in CSS pixels, so that its labels keep their size (never scaled below 11 px). A
 * listbox too: choosing a mark or bar chooses its entry.
 */
export function JournalChart({
  journal,
  now,
  asOf,
  onChoose,
}: {
  journal: readonly JournalEntry[];
  now: number;
  asOf: number | undefined;
  onChoose: (entry: number) => void;
}) {
  const chart = useMemo(() => journalChart(journal, now), [journal, now]);
  const [box, measured] = useWidth<HTMLDivElement>();
  const width = Math.max(LEFT + RIGHT + 40, measured);
  const x = (t: number) =>
    LEFT + ((t - chart.start) / (chart.end - chart.start)) * (width - LEFT - RIGHT);
  const y = (node: string) => 14 + chart.nodes.indexOf(node) * ROW;
  const plotHeight = 6 + chart.nodes.length * ROW;
  const ticks = timeTicks(chart.start, chart.end, Math.floor((width - LEFT - RIGHT) / TICK_ROOM));
  // The chart's items in journal order, for the keyboard.
  const entries = useMemo(
    () => [...chart.marks, ...chart.bars].map((i) => i.entry).sort((a, b) => a - b),
    [chart],
  );
  const selected = asOf !== undefined && entries.includes(asOf);
  const onKey = (e: KeyboardEvent) => {
    const at = Math.max(0, entries.indexOf(asOf ?? -1));
    const next = rovingIndex(e.key, at, entries.length);
    if (next === undefined) return;
    e.preventDefault();
    onChoose(entries[next]!);
  };

  return (
    <div ref={box} className="journal-chart">
      <svg
        role="listbox"
        aria-label={`Chart of ${chart.marks.length} runs and ${chart.bars.length} waits over time`}
        aria-activedescendant={selected ? optionId(asOf) : undefined}
        tabIndex={0}
        onKeyDown={onKey}
        width={width}
        height={plotHeight + AXIS}
      >
        {chart.nodes.map((n) => (
          <text key={n} x={4} y={y(n) + 4} className="journal-chart__node" aria-hidden="true">
            {n.length > 15 ? `${n.slice(0, 14)}…` : n}
          </text>
        ))}
        <g className="journal-chart__axis" aria-hidden="true">
          <line x1={LEFT} x2={width - RIGHT} y1={plotHeight} y2={plotHeight} />
          {ticks.map((t) => (
            <g key={t.at} transform={`translate(${x(t.at)}, ${plotHeight})`}>
              <line y2={4} />
              <text y={16} textAnchor="middle">
                {t.label}
              </text>
            </g>
          ))}
        </g>
        {chart.bars.map((b) => {
          const name = `${b.node} asleep ${formatInstant(b.from)} – ${formatInstant(b.to)}`;
          return (
            <rect
              key={b.entry}
              id={optionId(b.entry)}
              role="option"
              aria-selected={asOf === b.entry}
              aria-label={name}
              x={x(b.from)}
              y={y(b.node) - 4}
              width={Math.max(2, x(b.to) - x(b.from))}
              height={8}
              rx={3}
              className={`journal-chart__wait${asOf === b.entry ? ' chart-selected' : ''}`}
              onClick={() => onChoose(b.entry)}
            >
              <title>{name}</title>
            </rect>
          );
        })}
        {chart.marks.map((m) => {
          const name = `${m.node} ran at ${formatInstant(m.at)}${genNote(m.generation)}`;
          return (
            <circle
              key={m.entry}
              id={optionId(m.entry)}
              role="option"
              aria-selected={asOf === m.entry}
              aria-label={name}
              cx={x(m.at)}
              cy={y(m.node)}
              r={asOf === m.entry ? 6 : 4}
              className={`journal-chart__ran${asOf === m.entry ? ' chart-selected' : ''}`}
              onClick={() => onChoose(m.entry)}
            >
              <title>{name}</title>
            </circle>
          );
        })}
      </svg>
    </div>
  );
}

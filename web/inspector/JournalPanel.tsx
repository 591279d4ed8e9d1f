import { useMemo, useRef, type KeyboardEvent } from 'react';
import { toJsonLines } from '../../runtime/store/jsonLines.ts';
import { rovingIndex } from '../canvas/rovingIndex.ts';
import { download } from '../workspace/exportFlows.ts';
import { Button, IconButton } from '../ui/Button.tsx';
import { Download, History } from '../ui/icons.tsx';
import { describeEntry } from './describeEntry.ts';
import { formatInstant } from './formatTime.ts';
import { useRuntimeState } from '../state/runtimeState.ts';
import { RetentionSetting } from './RetentionSetting.tsx';
import { showAsOf, showOlderJournal, useInspector, type Inspection } from './inspectorState.ts';
import { generationColour, journalChart } from './journalChart.ts';

const WIDTH = 640;
const ROW = 22;
const LEFT = 120;

const optionId = (list: string, entry: number) => `${list}-${entry}`;

/**
 * The journal as a timeline, and as a chart: time along, nodes down, marks by generation, waits
 * as bars. Both are lists to choose from: choosing an entry (a click, or the arrow keys, Home and
 * End) shows the snapshot kept with it, read-only, in the Snapshot panel and on the canvas.
 * Only the newest entries are read; older ones a page at a time, when asked for.
 */
export function JournalPanel({ inspection }: { inspection: Inspection }) {
  const { journal, record, readAt: now } = inspection;
  const asOf = useInspector((s) => s.asOf);
  const chart = useMemo(() => journalChart(journal, now), [journal, now]);
  const timeline = useRef<HTMLOListElement>(null);
  const x = (t: number) =>
    LEFT + ((t - chart.start) / (chart.end - chart.start)) * (WIDTH - LEFT - 10);
  const y = (node: string) => 14 + chart.nodes.indexOf(node) * ROW;
  const height = 20 + chart.nodes.length * ROW;
  // The chart's items in journal order, for the keyboard.
  const chartEntries = useMemo(
    () => [...chart.marks, ...chart.bars].map((i) => i.entry).sort((a, b) => a - b),
    [chart],
  );
  const focused = asOf ?? journal.length - 1;

  const onTimelineKey = (e: KeyboardEvent) => {
    const next = rovingIndex(e.key, focused, journal.length);
    if (next === undefined) return;
    e.preventDefault();
    showAsOf(next);
    timeline.current?.querySelector<HTMLElement>(`#${optionId('journal', next)}`)?.focus();
  };
  const onChartKey = (e: KeyboardEvent) => {
    const at = Math.max(0, chartEntries.indexOf(asOf ?? -1));
    const next = rovingIndex(e.key, at, chartEntries.length);
    if (next === undefined) return;
    e.preventDefault();
    showAsOf(chartEntries[next]);
  };
  const chartSelected = asOf !== undefined && chartEntries.includes(asOf);

  return (
    <section className="inspector-panel journal" aria-labelledby="journal-heading">
      <h3 id="journal-heading">Journal</h3>
      <IconButton
        size="sm"
        className="journal__export"
        label="Export journal (JSON Lines)"
        tooltip="Download this process's whole journal, one JSON object a line"
        icon={<Download size={14} />}
        onClick={async () => {
          // The whole journal, not only the entries shown.
          const runtime = useRuntimeState.getState().runtime;
          const all = runtime ? await runtime.store.journal(record.id) : journal;
          download(`${record.id}.journal.jsonl`, toJsonLines(all), 'application/x-ndjson');
        }}
      />
      <svg
        role="listbox"
        aria-label={`Chart of ${chart.marks.length} runs and ${chart.bars.length} waits over time`}
        aria-activedescendant={chartSelected ? optionId('chart', asOf) : undefined}
        tabIndex={0}
        onKeyDown={onChartKey}
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        className="journal-chart"
      >
        {chart.nodes.map((n) => (
          <text key={n} x={4} y={y(n) + 4} fontSize="11" fill="currentColor" aria-hidden="true">
            {n}
          </text>
        ))}
        {chart.bars.map((b) => (
          <rect
            key={b.entry}
            id={optionId('chart', b.entry)}
            role="option"
            aria-selected={asOf === b.entry}
            aria-label={`${b.node} asleep ${formatInstant(b.from)} – ${formatInstant(b.to)}`}
            x={x(b.from)}
            y={y(b.node) - 4}
            width={Math.max(2, x(b.to) - x(b.from))}
            height={8}
            rx={3}
            fill="#94a3b8"
            className={asOf === b.entry ? 'chart-selected' : undefined}
            onClick={() => showAsOf(b.entry)}
          >
            <title>{`${b.node} asleep ${formatInstant(b.from)} – ${formatInstant(b.to)}`}</title>
          </rect>
        ))}
        {chart.marks.map((m) => (
          <circle
            key={m.entry}
            id={optionId('chart', m.entry)}
            role="option"
            aria-selected={asOf === m.entry}
            aria-label={`${m.node} ran at ${formatInstant(m.at)}${m.generation ? `, generation ${m.generation}` : ''}`}
            cx={x(m.at)}
            cy={y(m.node)}
            r={asOf === m.entry ? 6 : 4}
            fill={generationColour(m.generation)}
            className={asOf === m.entry ? 'chart-selected' : undefined}
            onClick={() => showAsOf(m.entry)}
          >
            <title>{`${m.node} ran at ${formatInstant(m.at)}${m.generation ? `, generation ${m.generation}` : ''}`}</title>
          </circle>
        ))}
      </svg>
      <RetentionSetting />
      {inspection.journalMore && (
        <Button
          size="sm"
          icon={<History size={14} aria-hidden="true" />}
          onClick={() => {
            const runtime = useRuntimeState.getState().runtime;
            if (runtime) void showOlderJournal(runtime);
          }}
        >
          Show older entries
        </Button>
      )}
      <ol
        ref={timeline}
        className="timeline"
        role="listbox"
        aria-label="Journal entries"
        onKeyDown={onTimelineKey}
      >
        {journal.map((e, i) => (
          <li
            key={i}
            id={optionId('journal', i)}
            role="option"
            aria-selected={asOf === i}
            // One stop in the tab order: the entry chosen, else the newest (roving tabindex).
            tabIndex={i === focused ? 0 : -1}
            onClick={() => showAsOf(i)}
          >
            <time dateTime={new Date(e.at).toISOString()}>{formatInstant(e.at)}</time>{' '}
            {describeEntry(e)}
          </li>
        ))}
      </ol>
    </section>
  );
}

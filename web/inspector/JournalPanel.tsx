import { useMemo } from 'react';
import { toJsonLines } from '../../runtime/store/jsonLines.ts';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import { download } from '../workspace/exportFlows.ts';
import { formatInstant } from './formatTime.ts';
import type { Inspection } from './inspectorState.ts';
import { generationColour, journalChart } from './journalChart.ts';

const WIDTH = 640;
const ROW = 22;
const LEFT = 120;

/** What each journal entry says, in a line. */
function describeEntry(e: JournalEntry): string {
  switch (e.type) {
    case 'ran':
      return `ran ${e.node}${e.gen.length ? ` (generation ${e.gen.join('.')})` : ''}`;
    case 'skipped':
      return `skipped ${e.node}`;
    case 'waited':
      return `fell asleep at ${e.node}, waiting for ${e.triggers.join(' or ')}`;
    case 'woke':
      return `woke at ${e.node} by ${e.trigger}`;
    case 'context-written':
      return `${e.node} wrote ${e.writes.map((w) => ('value' in w ? `${w.path} = ${JSON.stringify(w.value)}` : `removed ${w.path}`)).join(', ')}`;
    case 'failed':
      return `failed at ${e.node}: ${e.message}`;
    case 'flow-changed':
      return `its flow changed (${e.changes.length} changes)`;
    case 'resolved':
      return `resolved: ${e.choice}`;
    case 'started':
      return `started on ${e.flow}`;
    case 'retried':
      return `retried ${e.node}`;
    default:
      return e.type;
  }
}

/** The journal as a timeline, and as a chart: time along, nodes down, marks by generation, waits as bars. */
export function JournalPanel({ inspection, now }: { inspection: Inspection; now: number }) {
  const { journal, record } = inspection;
  const chart = useMemo(() => journalChart(journal, now), [journal, now]);
  const x = (t: number) =>
    LEFT + ((t - chart.start) / (chart.end - chart.start)) * (WIDTH - LEFT - 10);
  const y = (node: string) => 14 + chart.nodes.indexOf(node) * ROW;
  const height = 20 + chart.nodes.length * ROW;
  return (
    <section className="inspector-panel journal" aria-labelledby="journal-heading">
      <h3 id="journal-heading">Journal</h3>
      <button
        type="button"
        onClick={() =>
          download(`${record.id}.journal.jsonl`, toJsonLines(journal), 'application/x-ndjson')
        }
      >
        Export journal (JSON Lines)
      </button>
      <svg
        role="img"
        aria-label={`Chart of ${chart.marks.length} runs and ${chart.bars.length} waits over time`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
      >
        {chart.nodes.map((n) => (
          <text key={n} x={4} y={y(n) + 4} fontSize="11" fill="currentColor">
            {n}
          </text>
        ))}
        {chart.bars.map((b, i) => (
          <rect
            key={i}
            x={x(b.from)}
            y={y(b.node) - 4}
            width={Math.max(2, x(b.to) - x(b.from))}
            height={8}
            rx={3}
            fill="#94a3b8"
          >
            <title>{`${b.node} asleep ${formatInstant(b.from)} – ${formatInstant(b.to)}`}</title>
          </rect>
        ))}
        {chart.marks.map((m, i) => (
          <circle key={i} cx={x(m.at)} cy={y(m.node)} r={4} fill={generationColour(m.generation)}>
            <title>{`${m.node} ran at ${formatInstant(m.at)}, generation ${m.generation || '—'}`}</title>
          </circle>
        ))}
      </svg>
      {/* Focusable so that the scrolling list can be read with the keyboard. */}
      <ol className="timeline" aria-label="Journal entries" tabIndex={0}>
        {journal.map((e, i) => (
          <li key={i}>
            <time dateTime={new Date(e.at).toISOString()}>{formatInstant(e.at)}</time>{' '}
            {describeEntry(e)}
          </li>
        ))}
      </ol>
    </section>
  );
}

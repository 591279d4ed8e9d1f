import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import type { ContextWrite } from '../../shared/contextWrite.ts';
import { maskSecrets } from './maskSecrets.ts';

const writesOf = (writes: readonly ContextWrite[]) =>
  writes
    .map((w) =>
      'value' in w
        ? `${w.path || '(the whole document)'} = ${JSON.stringify(w.value)}`
        : `removed ${w.path}`,
    )
    .join(', ');

/** What a node did to the context: "wrote a = 1", "removed b", "wrote a = 1 and removed b". */
function didTo(writes: readonly ContextWrite[]): string {
  const wrote = writes.filter((w) => 'value' in w);
  const removed = writes.filter((w) => !('value' in w));
  return [
    wrote.length > 0 ? `wrote ${writesOf(wrote)}` : '',
    removed.length > 0 ? `removed ${removed.map((w) => w.path).join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
}

/**
 * What each journal entry says, in a line. `generation: false` leaves a run's generation out,
 * for a view that shows it as a label of its own (the timeline).
 */
export function describeEntry(e: JournalEntry, { generation = true } = {}): string {
  switch (e.type) {
    case 'ran':
      return `ran ${e.node}${generation && e.gen.length ? ` (generation ${e.gen.join('.')})` : ''}`;
    case 'skipped':
      return `skipped ${e.node}`;
    case 'waited':
      return `fell asleep at ${e.node}, waiting for ${e.triggers.join(' or ')}`;
    case 'woke':
      return `woke at ${e.node} by ${e.trigger}`;
    case 'context-written':
      return `${e.node} ${didTo(e.writes)}`;
    case 'context-edited':
      return `context edited from outside: ${writesOf(e.writes)}`;
    case 'failed':
      return `failed at ${e.node}: ${e.message}`;
    case 'flow-changed':
      return `its flow changed (${e.changes.length === 1 ? '1 change' : `${e.changes.length} changes`})`;
    case 'resolved':
      return `resolved: ${e.choice}`;
    case 'started':
      return e.from
        ? `started on ${e.flow}, forked from ${e.from.process} (its entry ${e.from.seq}, on ${e.from.context === 'past' ? 'a copy of its context as of then' : 'its live context'})`
        : `started on ${e.flow}`;
    case 'retried':
      return `retried ${e.node}`;
    case 'call-attempt':
      // The URL as recorded: a secret in it is its name, never its value. A pinned attempt sent
      // nothing (docs/format.md#pinned-answers): it says so instead of a time.
      if (e.pinned)
        return `${e.node}: attempt ${e.attempt} → ${e.error ?? e.status}, answered by its pin (${e.method} ${maskSecrets(e.url)} not sent)`;
      return `${e.node}: attempt ${e.attempt} → ${e.error ?? e.status} (${e.method} ${maskSecrets(e.url)}, ${e.ms} ms)`;
    case 'summarized':
      return `${e.passes} older passes summed up (${e.entries} entries, until ${new Date(e.to).toISOString()})`;
    default:
      return e.type;
  }
}

import type { JournalEntry } from '../../runtime/supervisor/records.ts';

/** What each journal entry says, in a line. */
export function describeEntry(e: JournalEntry): string {
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
    case 'summarized':
      return `${e.passes} older passes summed up (${e.entries} entries, until ${new Date(e.to).toISOString()})`;
    default:
      return e.type;
  }
}

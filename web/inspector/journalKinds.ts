import type { JournalEntry } from '../../runtime/supervisor/records.ts';

/**
 * What happened, as the timeline colours it: each kind has its own design token
 * (`--wf-journal-<kind>`, tokens.css, light and dark). A generation is never a colour.
 */
export type EntryKind =
  | 'ran'
  | 'skipped'
  | 'waited'
  | 'woke'
  | 'wrote'
  | 'failed'
  | 'control'
  | 'changed'
  | 'done'
  | 'call';

export function kindOf(e: JournalEntry): EntryKind {
  switch (e.type) {
    case 'ran':
    case 'skipped':
    case 'waited':
    case 'woke':
    case 'failed':
    case 'done':
      return e.type;
    case 'context-written':
    case 'context-edited':
      return 'wrote';
    case 'flow-changed':
      return 'changed';
    case 'call-attempt':
      // A request sent (or refused) on the process's behalf: neither the flow's step nor a control.
      return 'call';
    default:
      // started, stopped, resumed, retried, resolved, cancelled, summarized: the designer's or
      // the runtime's own doing, not the flow's.
      return 'control';
  }
}

/** The generation of the pass an entry belongs to, as its label says it; '' outside loops. */
export function generationOf(e: JournalEntry): string {
  return 'gen' in e && e.gen.length > 0 ? e.gen.join('.') : '';
}

/** The store's key of an entry (its order in the journal), when it was read from IndexedDB. */
export function seqOf(e: JournalEntry): number | undefined {
  const seq = (e as { seq?: unknown }).seq;
  return typeof seq === 'number' ? seq : undefined;
}

import type { ContextWrite } from '../../shared/contextWrite.ts';
import type { Generation } from './snapshot.ts';

/**
 * What the engine reports having done, in order (docs/format.md#the-runtime-and-the-supervisor).
 * Nodes are named by path (`b/step`). The supervisor adds the time and its own entries
 * (started, stopped, flow-changed, resolved).
 */
export type EngineJournalEntry =
  | { type: 'ran'; node: string; gen: Generation }
  | { type: 'skipped'; node: string; gen: Generation }
  | { type: 'waited'; node: string; gen: Generation; triggers: string[] }
  | { type: 'woke'; node: string; gen: Generation; trigger: string }
  | { type: 'context-written'; node: string; writes: ContextWrite[] }
  | { type: 'failed'; node: string; message: string }
  | { type: 'done' };

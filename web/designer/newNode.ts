import type { FlowNode, NodeKind } from '../../shared/schema.ts';
import { contextPathsOf } from './contextPaths.ts';
import { freshId } from './newIds.ts';
import type { PaletteEntry } from './paletteEntries.ts';

/** A new node of a kind, with the fields its kind needs filled with a sensible start. */
export function newNodeOfKind(kind: NodeKind, id: string): FlowNode {
  switch (kind) {
    case 'work':
      return { id, kind, set: {} };
    case 'join':
      return { id, kind, depends: [] };
    case 'continue-after':
      return { id, kind, on: [{ id: 'timer', timer: 'PT1H' }] };
    case 'subflow':
      return { id, kind, flow: '' };
    default:
      return { id, kind } as FlowNode;
  }
}

/**
 * A new node for a palette entry. A Call is a continue-after with one call trigger: GET, an
 * empty URL (which validation flags until it is written: the app cannot guess where to call),
 * and its outcome written into a path no node of the flow writes yet, so that it clobbers nothing.
 */
export function newNodeOf(entry: PaletteEntry, id: string, others: readonly FlowNode[]): FlowNode {
  if (entry !== 'call') return newNodeOfKind(entry, id);
  const into = freshId('response', new Set(contextPathsOf(others)));
  return {
    id,
    kind: 'continue-after',
    on: [{ id: 'call', call: { method: 'GET', url: '' }, into }],
  };
}

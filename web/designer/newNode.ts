import type { FlowNode, NodeKind } from '../../shared/schema.ts';

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

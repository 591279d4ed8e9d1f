import { rectOf, replaceDrawing, type DesignerStore } from './designerStore.ts';
import { copyFragment, pasteFragment, type Fragment } from './fragment.ts';
import { boundsOf, NEW_NODE_SIZE, spotBeside } from './placement.ts';

/**
 * How far to move a fragment so that it lands in the free place nearest where it was copied
 * from: beside its source, not beside the last paste, so that pastes never march away.
 */
function offsetBesideSource(store: DesignerStore, fragment: Fragment): { x: number; y: number } {
  const s = store.getState();
  const box = boundsOf(fragment.nodes.map((n) => ({ ...n.position, ...NEW_NODE_SIZE })))!;
  const spot = spotBeside(s.nodes.map(rectOf), box);
  return { x: spot.x - box.x, y: spot.y - box.y };
}

/** Adds a fragment beside its source in one edit; returns the new nodes' ids, selected. */
function pasteBeside(store: DesignerStore, fragment: Fragment): string[] {
  const s = store.getState();
  const before = new Set(s.nodes.map((n) => n.id));
  const pasted = pasteFragment(s.nodes, s.edges, fragment, offsetBesideSource(store, fragment));
  replaceDrawing(store, pasted.nodes, pasted.edges);
  return pasted.nodes.filter((n) => !before.has(n.id)).map((n) => n.id);
}

/**
 * What Ctrl+C took, by designer store; kept in the tab, so pasting works without clipboard
 * permissions.
 */
const clipboards = new WeakMap<DesignerStore, Fragment | undefined>();

export function copySelection(store: DesignerStore): boolean {
  const s = store.getState();
  const copied = copyFragment(s.nodes, s.edges);
  clipboards.set(store, copied);
  return copied !== undefined;
}

/** Pastes what was copied in free space beside where it was copied from; returns the new ids. */
export function pasteCopied(store: DesignerStore): string[] {
  const copied = clipboards.get(store);
  return copied ? pasteBeside(store, copied) : [];
}

/** Copies and pastes the selection in one edit, leaving the clipboard alone; returns the new ids. */
export function duplicateSelection(store: DesignerStore): string[] {
  const s = store.getState();
  const fragment = copyFragment(s.nodes, s.edges);
  return fragment ? pasteBeside(store, fragment) : [];
}

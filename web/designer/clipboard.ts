import { rectOf, replaceDrawing, type DesignerStore } from './designerStore.ts';
import { copyFragment, pasteFragment, type Fragment } from './fragment.ts';
import { boundsOf, freeSpot, NEW_NODE_SIZE } from './placement.ts';

/** How far to move a fragment so that it lands in free space beside the selection. */
function offsetToFreeSpace(store: DesignerStore, fragment: Fragment): { x: number; y: number } {
  const s = store.getState();
  const box = boundsOf(fragment.nodes.map((n) => ({ ...n.position, ...NEW_NODE_SIZE })))!;
  const near = boundsOf(s.nodes.filter((n) => n.selected).map(rectOf));
  const spot = freeSpot(s.nodes.map(rectOf), near, box, box);
  return { x: spot.x - box.x, y: spot.y - box.y };
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

/** Pastes what was copied in free space beside the selection (the last paste), so none stack. */
export function pasteCopied(store: DesignerStore): void {
  const copied = clipboards.get(store);
  if (!copied) return;
  const s = store.getState();
  const pasted = pasteFragment(s.nodes, s.edges, copied, offsetToFreeSpace(store, copied));
  replaceDrawing(store, pasted.nodes, pasted.edges);
}

/** Copies and pastes the selection in one edit, leaving the clipboard alone. */
export function duplicateSelection(store: DesignerStore): void {
  const s = store.getState();
  const fragment = copyFragment(s.nodes, s.edges);
  if (!fragment) return;
  const pasted = pasteFragment(s.nodes, s.edges, fragment, offsetToFreeSpace(store, fragment));
  replaceDrawing(store, pasted.nodes, pasted.edges);
}

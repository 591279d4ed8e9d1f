import { rectOf, useDesigner, replaceDrawing } from './designerStore.ts';
import { copyFragment, pasteFragment, type Fragment } from './fragment.ts';
import { boundsOf, freeSpot, NEW_NODE_SIZE } from './placement.ts';

/** How far to move a fragment so that it lands in free space beside the selection. */
function offsetToFreeSpace(fragment: Fragment): { x: number; y: number } {
  const s = useDesigner.getState();
  const box = boundsOf(fragment.nodes.map((n) => ({ ...n.position, ...NEW_NODE_SIZE })))!;
  const near = boundsOf(s.nodes.filter((n) => n.selected).map(rectOf));
  const spot = freeSpot(s.nodes.map(rectOf), near, box, box);
  return { x: spot.x - box.x, y: spot.y - box.y };
}

/** What Ctrl+C took; kept in the tab, so pasting works without clipboard permissions. */
let copied: Fragment | undefined;

export function copySelection(): boolean {
  const s = useDesigner.getState();
  copied = copyFragment(s.nodes, s.edges);
  return copied !== undefined;
}

/** Pastes what was copied in free space beside the selection (the last paste), so none stack. */
export function pasteCopied(): void {
  if (!copied) return;
  const s = useDesigner.getState();
  const pasted = pasteFragment(s.nodes, s.edges, copied, offsetToFreeSpace(copied));
  replaceDrawing(pasted.nodes, pasted.edges);
}

/** Copies and pastes the selection in one edit, leaving the clipboard alone. */
export function duplicateSelection(): void {
  const s = useDesigner.getState();
  const fragment = copyFragment(s.nodes, s.edges);
  if (!fragment) return;
  const pasted = pasteFragment(s.nodes, s.edges, fragment, offsetToFreeSpace(fragment));
  replaceDrawing(pasted.nodes, pasted.edges);
}

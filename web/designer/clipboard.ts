import { useDesigner, replaceDrawing } from './designerStore.ts';
import { copyFragment, pasteFragment, type Fragment } from './fragment.ts';

/** What Ctrl+C took; kept in the tab, so pasting works without clipboard permissions. */
let copied: Fragment | undefined;
let pastes = 0;

export function copySelection(): boolean {
  const s = useDesigner.getState();
  copied = copyFragment(s.nodes, s.edges);
  pastes = 0;
  return copied !== undefined;
}

/** Pastes what was copied, each paste a little further off so copies do not stack. */
export function pasteCopied(): void {
  if (!copied) return;
  pastes++;
  const s = useDesigner.getState();
  const pasted = pasteFragment(s.nodes, s.edges, copied, { x: 40 * pastes, y: 40 * pastes });
  replaceDrawing(pasted.nodes, pasted.edges);
}

/** Copies and pastes the selection in one edit, leaving the clipboard alone. */
export function duplicateSelection(): void {
  const s = useDesigner.getState();
  const fragment = copyFragment(s.nodes, s.edges);
  if (!fragment) return;
  const pasted = pasteFragment(s.nodes, s.edges, fragment, { x: 40, y: 40 });
  replaceDrawing(pasted.nodes, pasted.edges);
}

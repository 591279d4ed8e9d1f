import { isTextEntry } from '../ui/isTextEntry.ts';
import { useEffect } from 'react';
import { copySelection, duplicateSelection, pasteCopied } from '../designer/clipboard.ts';
import {
  deleteItems,
  deleteSelection,
  deselectAll,
  redoEdit,
  undoEdit,
  useDesignerStore,
  type DesignerStore,
} from '../designer/designerStore.ts';
import { trackKeyboardFocus } from './keyboardFocus.ts';
import { nodeIdsOf } from './nodeIds.ts';
import { useKeepInView } from './useKeepInView.ts';

/** Where a key goes that a dialog or a menu is open for: not to the drawing. */
const inOverlay = (target: EventTarget | null) =>
  target instanceof Element && target.closest('[role="dialog"], [role="menu"]') !== null;

/**
 * Delete acts on what the keyboard is on: the node or edge the keyboard focused on the canvas
 * (it wears the focus ring) alone, or else the selection; never both, so what goes is what is
 * highlighted. A node focused by a click is not the keyboard's: Delete then takes the selection,
 * as clicks and Shift+clicks built it.
 */
function deleteWhatKeyboardIsOn(store: DesignerStore, keyboardFocused: Element | null): void {
  const el = keyboardFocused;
  const node = el?.closest<HTMLElement>('.react-flow__node')?.dataset.id;
  const edge = el?.closest<SVGElement>('.react-flow__edge')?.dataset.id;
  const s = store.getState();
  if (node !== undefined) {
    // A ghost of a removed node or a placeholder is not part of the flow.
    if (nodeIdsOf(s.nodes).has(node)) deleteItems(store, [node], []);
  } else if (edge !== undefined) {
    if (s.edges.some((e) => e.id === edge)) deleteItems(store, [], [edge]);
  } else deleteSelection(store);
}

/**
 * The drawing tools' shortcuts (docs/architecture.md#conventions): Ctrl+Z undo, Ctrl+Shift+Z (or
 * Ctrl+Y) redo, Ctrl+C, Ctrl+V, Ctrl+D duplicate, Delete or Backspace, Escape to deselect, `?`
 * help. What a paste or a duplicate adds is brought into view and focused.
 */
export function useShortcuts(options: { onHelp: () => void }): void {
  const { onHelp } = options;
  const store = useDesignerStore();
  const keepInView = useKeepInView();
  useEffect(() => {
    const keyboard = trackKeyboardFocus(document);
    // The first new node is panned to and focused once the canvas has drawn it.
    const bringIn = (ids: string[]) => {
      const first = ids[0];
      if (first === undefined) return;
      requestAnimationFrame(() => {
        keepInView(first);
        requestAnimationFrame(() =>
          document
            .querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(first)}"]`)
            ?.focus({ preventScroll: true }),
        );
      });
    };
    const onKey = (e: KeyboardEvent) => {
      if (isTextEntry(e.target) || e.defaultPrevented) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === 'z') {
        e.preventDefault();
        if (e.shiftKey) redoEdit(store);
        else undoEdit(store);
      } else if (mod && key === 'y') {
        e.preventDefault();
        redoEdit(store);
      } else if (mod && key === 'c') {
        copySelection(store);
      } else if (mod && key === 'v') {
        e.preventDefault();
        bringIn(pasteCopied(store));
      } else if (mod && key === 'd') {
        e.preventDefault();
        bringIn(duplicateSelection(store));
      } else if (!mod && (e.key === 'Delete' || e.key === 'Backspace')) {
        if (inOverlay(e.target)) return;
        e.preventDefault();
        deleteWhatKeyboardIsOn(store, keyboard.focused());
      } else if (!mod && e.key === 'Escape') {
        if (inOverlay(e.target) || document.querySelector('[role="dialog"], [role="menu"]')) return;
        deselectAll(store);
      } else if (!mod && e.key === '?') {
        e.preventDefault();
        onHelp();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      keyboard.stop();
    };
  }, [onHelp, store, keepInView]);
}

import { isTextEntry } from '../ui/isTextEntry.ts';
import { useEffect } from 'react';
import { copySelection, duplicateSelection, pasteCopied } from '../designer/clipboard.ts';
import { redoEdit, undoEdit, useDesignerStore } from '../designer/designerStore.ts';

/**
 * The drawing tools' shortcuts (docs/architecture.md#conventions): Ctrl+Z undo, Ctrl+Shift+Z (or Ctrl+Y) redo, Ctrl+C,
 * Ctrl+V, Ctrl+D duplicate, `?` help. Delete and Backspace are React Flow's own.
 */
export function useShortcuts(options: { onHelp: () => void }): void {
  const { onHelp } = options;
  const store = useDesignerStore();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTextEntry(e.target)) return;
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
        pasteCopied(store);
      } else if (mod && key === 'd') {
        e.preventDefault();
        duplicateSelection(store);
      } else if (!mod && e.key === '?') {
        e.preventDefault();
        onHelp();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onHelp, store]);
}

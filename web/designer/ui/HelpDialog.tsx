import { useEffect, useRef } from 'react';

const SHORTCUTS: [string, string][] = [
  ['Delete or Backspace', 'delete the selection'],
  ['Ctrl+Z', 'undo'],
  ['Ctrl+Shift+Z or Ctrl+Y', 'redo'],
  ['Ctrl+C, Ctrl+V', 'copy and paste (pasted nodes get new ids)'],
  ['Ctrl+D', 'duplicate the selection'],
  ['Shift+click, or drag a box with Shift', 'select several'],
  ['Arrow keys in the palette', 'move between node kinds; Enter adds one'],
  ['C on a focused node', 'connect it: pick a node or a new kind (and the trigger)'],
  ['Arrow keys on a selected node', 'move it; the view follows'],
  ['?', 'this help'],
  ['Escape', 'close a dialog'],
];

/** The shortcuts, in a modal dialog (the native one: focus and Escape handled by the browser). */
export function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby="help-heading" onClose={onClose} className="help">
      <h2 id="help-heading">Keyboard shortcuts</h2>
      <table>
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys}>
              <th scope="row">
                <kbd>{keys}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </dialog>
  );
}

import { STOP_SHORTCUT } from '../../inspector/ProcessControls.tsx';
import { Dialog } from '../../ui/Dialog.tsx';

const SHORTCUTS: [string, string][] = [
  [
    'Delete or Backspace',
    'delete the node or edge focused from the keyboard, or else the selection',
  ],
  ['Ctrl+Z', 'undo'],
  ['Ctrl+Shift+Z or Ctrl+Y', 'redo'],
  ['Ctrl+C, Ctrl+V', 'copy and paste (pasted nodes get new ids)'],
  ['Ctrl+D', 'duplicate the selection'],
  ['Shift+click, or drag a box with Shift', 'select several'],
  [
    'Arrow keys in the palette',
    'move between node kinds and Call (a continue-after that makes an HTTP request); Enter adds one',
  ],
  ['C on a focused node', 'connect it: pick a node or a new kind (and the trigger)'],
  ['Tab on a focused node', 'reach its source handles (one per trigger on a continue-after)'],
  [
    'Enter or Space on a focused handle',
    'connect from it: pick a node or a new kind (a trigger’s handle: taken when that trigger fires)',
  ],
  ['Arrow keys on a selected node', 'move it; the view follows'],
  ['Ctrl+Space in an expression', 'complete a context path of the flow or a JSONata function'],
  ['Escape or Tab in an expression', 'leave it (Escape: for the properties panel)'],
  ['Tab in a JSON field', 'leave it (Enter makes a new line; a syntax error is marked as typed)'],
  ['Shift+L', 'auto-layout the flow'],
  ['Shift+1', 'fit the flow to the view'],
  ['Ctrl+Enter', 'Start: a process of the flow on the canvas'],
  [
    'F6, Shift+F6',
    'move focus to the next (previous) area: flow list, canvas, properties, run view',
  ],
  ['?', 'this help'],
  ['Escape', 'deselect, close a menu or a dialog, or cancel a drag'],
  [STOP_SHORTCUT, 'stop the process inspected (as its Stop button does)'],
];

const STEPS: [string, string][] = [
  [
    'Draw',
    'Add nodes from the palette on the left, drag from a handle to connect them, and set each one’s properties on the right.',
  ],
  [
    'Start',
    'Start runs the flow on the canvas; its process is selected below, its position drawn on the canvas.',
  ],
  [
    'Watch',
    'The run view shows where the process is (snapshot), what is true now (context) and which pass it is on (generations), with its journal.',
  ],
  [
    'Move time',
    'Switch the clock to virtual time and advance it: a day-long sleep passes in a click.',
  ],
];

/** How the workbench is used, and its keyboard shortcuts, in a modal dialog. */
export function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Help"
      description="wakeflow designs durable flows: processes that sleep on timers, events and people, and wake where they stopped."
      size="lg"
    >
      <ol className="help-steps">
        {STEPS.map(([title, text]) => (
          <li key={title}>
            <strong>{title}.</strong> {text}
          </li>
        ))}
      </ol>
      <h3 className="help-heading">Keyboard shortcuts</h3>
      <table className="help-shortcuts" aria-label="Keyboard shortcuts">
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
    </Dialog>
  );
}

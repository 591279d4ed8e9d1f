import {
  autocompletion,
  completionStatus,
  type CompletionContext,
  type CompletionResult,
} from '@codemirror/autocomplete';
import { linter, type Diagnostic } from '@codemirror/lint';
import { Prec } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { useRef, useState } from 'react';
import type { ProblemSpan } from '../../../../shared/expressionSyntax.ts';
import {
  endTyping,
  typedInto,
  useDesignerStore,
  type DesignerStore,
} from '../../../designer/designerStore.ts';
import type { ControlProps } from '../Field.tsx';
import { CodeMirrorEditor } from '../../../ui/codeEditor/CodeMirrorEditor.tsx';
import { fieldControl } from '../../../ui/codeEditor/editorControl.ts';
import { completeExpression } from './completeExpression.ts';
import { contextPathsOf } from './contextPaths.ts';
import { jsonataHighlighting } from '../../../ui/codeEditor/jsonataLanguage.ts';

/** Context paths written anywhere in the open flow, read when completion is asked for. */
function flowPaths(designer: DesignerStore): string[] {
  return contextPathsOf(designer.getState().nodes.map((n) => n.data.node));
}

const completionSource =
  (designer: DesignerStore) =>
  (context: CompletionContext): CompletionResult | null => {
    const text = context.state.doc.toString();
    const found = completeExpression(text, context.pos, flowPaths(designer), context.explicit);
    return found && { from: found.from, options: found.options, validFor: /^[$\w.]*$/ };
  };

/** Escape and Tab leave the editor: Tab to the next control, Escape to the panel. */
function leaveOnEscape(designer: DesignerStore, e: KeyboardEvent, view: EditorView): boolean {
  if (e.key !== 'Escape' || completionStatus(view.state) !== null) return false;
  // This Escape was for the editor, not for the canvas (which deselects on it).
  e.preventDefault();
  e.stopPropagation();
  endTyping(designer);
  view.dom.closest<HTMLElement>('.property-panel')?.focus();
  return true;
}

export interface EditorProps {
  typingKey: string;
  control: ControlProps;
  value: string;
  onCommit: (text: string) => void;
  check: (text: string) => ProblemSpan | undefined;
  placeholder: string | undefined;
}

/** The JSONata editor of a CodeField, in a chunk of its own, loaded when one is shown. */
export function CodeEditor({
  typingKey,
  control,
  value,
  onCommit,
  check,
  placeholder,
}: EditorProps) {
  // The extensions are made once; what they call back is read from here, always the latest.
  const latest = useRef({ check });
  latest.current = { check };
  const designer = useDesignerStore();
  const [extensions] = useState(() => [
    // Enter takes the option shown however soon it is pressed: a delay would make what Enter
    // does depend on typing speed (commit, or complete).
    autocompletion({ override: [completionSource(designer)], icons: false, interactionDelay: 0 }),
    // Enter commits the typing session (one undo step); the completion's own Enter comes first.
    Prec.high(
      keymap.of([
        {
          key: 'Enter',
          run: () => {
            endTyping(designer);
            return true;
          },
        },
      ]),
    ),
    jsonataHighlighting,
    linter(
      (v): Diagnostic[] => {
        const p = latest.current.check(v.state.doc.toString());
        return p ? [{ from: p.from, to: p.to, severity: 'error', message: p.message }] : [];
      },
      { delay: 100 },
    ),
    EditorView.domEventHandlers({
      keydown: (e, view) => leaveOnEscape(designer, e, view),
      blur: () => endTyping(designer),
    }),
  ]);
  return (
    <CodeMirrorEditor
      control={fieldControl(control)}
      value={value}
      onChange={(text) => typedInto(designer, typingKey, () => onCommit(text))}
      extensions={extensions}
      multiline={false}
      placeholder={placeholder}
    />
  );
}

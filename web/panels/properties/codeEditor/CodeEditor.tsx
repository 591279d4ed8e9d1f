import {
  autocompletion,
  completionStatus,
  startCompletion,
  type Completion,
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
import { completeCallExpression } from './completeSecret.ts';
import { contextPathsOf } from '../../../designer/contextPaths.ts';
import { jsonataHighlighting } from '../../../ui/codeEditor/jsonataLanguage.ts';

/** Context paths written anywhere in the open flow, read when completion is asked for. */
function flowPaths(designer: DesignerStore): string[] {
  return contextPathsOf(designer.getState().nodes.map((n) => n.data.node));
}

/** `$secret` as an option: writes `$secret('')`, puts the cursor between the quotes, and asks. */
const secretCall: Completion['apply'] = (view, _completion, from, to) => {
  view.dispatch({
    changes: { from, to, insert: "$secret('')" },
    selection: { anchor: from + "$secret('".length },
  });
  startCompletion(view);
};

const completionSource =
  (designer: DesignerStore, secrets: () => readonly string[] | undefined) =>
  (context: CompletionContext): CompletionResult | null => {
    const text = context.state.doc.toString();
    const names = secrets();
    if (names === undefined) {
      const found = completeExpression(text, context.pos, flowPaths(designer), context.explicit);
      return found && { from: found.from, options: found.options, validFor: /^[$\w.]*$/ };
    }
    const found = completeCallExpression(
      text,
      context.pos,
      flowPaths(designer),
      names,
      context.explicit,
    );
    if (!found) return null;
    const options = found.options.map(({ secretCall: call, ...o }) =>
      call ? { ...o, apply: secretCall } : o,
    );
    return { from: found.from, options, validFor: /^[$\w.-]*$/ };
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
  /**
   * The workspace's secret names, for a field that may read them (a call's URL, headers and
   * body): `$secret` and these names are offered too. Undefined elsewhere.
   */
  secrets?: readonly string[] | undefined;
  multiline?: boolean;
}

/** The JSONata editor of a CodeField, in a chunk of its own, loaded when one is shown. */
export function CodeEditor({
  typingKey,
  control,
  value,
  onCommit,
  check,
  placeholder,
  secrets,
  multiline = false,
}: EditorProps) {
  // The extensions are made once; what they call back is read from here, always the latest.
  const latest = useRef({ check, secrets });
  latest.current = { check, secrets };
  const designer = useDesignerStore();
  const [extensions] = useState(() => [
    // Enter takes the option shown however soon it is pressed: a delay would make what Enter
    // does depend on typing speed (commit, or complete).
    autocompletion({
      override: [completionSource(designer, () => latest.current.secrets)],
      icons: false,
      interactionDelay: 0,
    }),
    // Enter commits the typing session (one undo step); the completion's own Enter comes first.
    // `multiline` is read as the editor is made, as CodeMirrorEditor reads it.
    Prec.high(
      keymap.of([
        {
          key: 'Enter',
          // In a multi-line editor (a body) Enter still ends the undo step, then makes a line.
          run: () => {
            endTyping(designer);
            return !multiline;
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
      multiline={multiline}
      rows={multiline ? 3 : 1}
      placeholder={placeholder}
    />
  );
}

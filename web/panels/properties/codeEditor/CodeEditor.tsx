import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionStatus,
  type CompletionContext,
  type CompletionResult,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { linter, type Diagnostic } from '@codemirror/lint';
import { Annotation, Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderText } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import type { ProblemSpan } from '../../../../shared/expressionSyntax.ts';
import { endTyping, typedInto, useDesigner } from '../../../designer/designerStore.ts';
import type { ControlProps } from '../Field.tsx';
import { completeExpression } from './completeExpression.ts';
import { contextPathsOf } from './contextPaths.ts';
import { jsonataHighlighting } from './jsonataLanguage.ts';

/** Marks the editor's own update of its text to the value the store holds (undo, redo). */
const fromStore = Annotation.define<boolean>();

/** Context paths written anywhere in the open flow, read when completion is asked for. */
function flowPaths(): string[] {
  return contextPathsOf(useDesigner.getState().nodes.map((n) => n.data.node));
}

function completionSource(context: CompletionContext): CompletionResult | null {
  const text = context.state.doc.toString();
  const found = completeExpression(text, context.pos, flowPaths(), context.explicit);
  return found && { from: found.from, options: found.options, validFor: /^[$\w.]*$/ };
}

/** Escape and Tab leave the editor: Tab to the next control, Escape to the panel. */
function leaveOnEscape(e: KeyboardEvent, view: EditorView): boolean {
  if (e.key !== 'Escape' || completionStatus(view.state) !== null) return false;
  // This Escape was for the editor, not for the process inspected (ProcessControls).
  e.preventDefault();
  e.stopPropagation();
  endTyping();
  view.dom.closest<HTMLElement>('.property-panel')?.focus();
  return true;
}

const contentAttributes = (control: ControlProps, labelId: string) =>
  EditorView.contentAttributes.of({
    id: control.id,
    'aria-labelledby': labelId,
    'aria-multiline': 'false',
    ...(control['aria-describedby'] && { 'aria-describedby': control['aria-describedby'] }),
    ...(control['aria-invalid'] && { 'aria-invalid': 'true' }),
    spellcheck: 'false',
    autocapitalize: 'off',
    autocorrect: 'off',
  });

export interface EditorProps {
  typingKey: string;
  control: ControlProps;
  value: string;
  onCommit: (text: string) => void;
  check: (text: string) => ProblemSpan | undefined;
  placeholder: string | undefined;
}

/** The CodeMirror editor of a CodeField, in a chunk of its own, loaded when one is shown. */
export function CodeEditor({
  typingKey,
  control,
  value,
  onCommit,
  check,
  placeholder,
}: EditorProps) {
  const parent = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const attributes = useRef(new Compartment());
  // The editor is made once; what it calls back is read from here, always the latest.
  const latest = useRef({ onCommit, check, typingKey });
  latest.current = { onCommit, check, typingKey };
  const labelId = `${control.id}-label`;

  useEffect(() => {
    const lint = linter(
      (v): Diagnostic[] => {
        const p = latest.current.check(v.state.doc.toString());
        return p ? [{ from: p.from, to: p.to, severity: 'error', message: p.message }] : [];
      },
      { delay: 100 },
    );
    const created = new EditorView({
      parent: parent.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          closeBrackets(),
          // Enter takes the option shown however soon it is pressed: a delay would make what Enter
          // does depend on typing speed (commit, or complete).
          autocompletion({ override: [completionSource], icons: false, interactionDelay: 0 }),
          keymap.of([
            {
              key: 'Enter',
              run: () => {
                endTyping();
                return true;
              },
            },
            ...closeBracketsKeymap,
            ...historyKeymap,
            ...defaultKeymap,
          ]),
          jsonataHighlighting,
          lint,
          placeholder === undefined ? [] : placeholderText(placeholder),
          attributes.current.of(contentAttributes(control, labelId)),
          EditorView.domEventHandlers({
            keydown: leaveOnEscape,
            blur: () => endTyping(),
          }),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged || u.transactions.some((t) => t.annotation(fromStore))) return;
            const text = u.state.doc.toString();
            typedInto(latest.current.typingKey, () => latest.current.onCommit(text));
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
    // Made once per mount; the value, the label's ids and the messages follow below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A label's click focuses only a form control; the editor is not one, so it is done here.
  useEffect(() => {
    const label = document.getElementById(labelId);
    const focus = () => view.current?.focus();
    label?.addEventListener('click', focus);
    return () => label?.removeEventListener('click', focus);
  }, [labelId]);

  // The store's value wins when it differs from the text (undo, redo, an edit from elsewhere).
  useEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === value) return;
    v.dispatch({
      changes: { from: 0, to: v.state.doc.length, insert: value },
      annotations: fromStore.of(true),
    });
  }, [value]);

  const describedBy = control['aria-describedby'];
  const invalid = control['aria-invalid'];
  useEffect(() => {
    view.current?.dispatch({
      effects: attributes.current.reconfigure(
        contentAttributes(
          { id: control.id, 'aria-describedby': describedBy, 'aria-invalid': invalid },
          labelId,
        ),
      ),
    });
  }, [control.id, describedBy, invalid, labelId]);

  return <div ref={parent} className="nodrag wf-code" />;
}

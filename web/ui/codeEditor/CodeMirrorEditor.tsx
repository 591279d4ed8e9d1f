import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import {
  Annotation,
  Compartment,
  EditorState,
  type ChangeSet,
  type Extension,
} from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderText } from '@codemirror/view';
import { useEffect, useRef, useState } from 'react';
import type { EditorControl } from './editorControl.ts';

export interface CodeMirrorProps {
  control: EditorControl;
  value: string;
  /** Called on every edit made in the editor (not on the value given to it). */
  onChange: (text: string) => void;
  /** The language, linting and keys of this kind of field; read once, when it mounts. */
  extensions: Extension;
  /** Whether Enter makes a new line (JSON) or is the field's own (an expression: commit). */
  multiline: boolean;
  /** Not editable and out of the tab order, as a disabled textarea is; said as disabled. */
  disabled?: boolean;
  placeholder?: string | undefined;
  /** Lines of height it opens at (it grows with its text, and scrolls past 20). */
  rows?: number;
  /**
   * The most characters the text may hold: an edit (a paste) that would make it longer is
   * refused before the editor lays it out, and says why under the field.
   */
  maxChars?: number;
}

/** What the editor says when an edit would pass its limit. */
export function overLimit(chars: number, max: number): string {
  return `That would make the text ${chars.toLocaleString('en')} characters; at most ${max.toLocaleString('en')} fit in a context, so nothing was pasted`;
}

/** Marks the editor's own update of its text to the value it was given (undo, a reset). */
const fromOutside = Annotation.define<boolean>();

const attributesOf = (c: EditorControl, multiline: boolean, disabled: boolean) =>
  EditorView.contentAttributes.of({
    id: c.id,
    'aria-labelledby': c.labelId,
    'aria-multiline': String(multiline),
    ...(c.describedBy && { 'aria-describedby': c.describedBy }),
    ...(c.invalid && { 'aria-invalid': 'true' }),
    ...(disabled && { 'aria-disabled': 'true' }),
    // Editable text is in the tab order already; saying so lets a checker see that a field whose
    // text scrolls can be reached by keyboard (axe does not count contenteditable as focusable).
    ...(!disabled && { tabindex: '0' }),
    spellcheck: 'false',
    autocapitalize: 'off',
    autocorrect: 'off',
  });

const editableOf = (disabled: boolean) => [
  EditorView.editable.of(!disabled),
  EditorState.readOnly.of(disabled),
];

/**
 * The one CodeMirror 6 editor every code field of the app is made of (JSONata expressions, JSON
 * documents): labelled by its field's label, described by its hint and error, focused by a click
 * on the label. Tab is not bound (no indentWithTab), so Tab and Shift+Tab leave it as they leave
 * an input. What a kind of field adds (language, linter, completion, keys) comes as extensions.
 */
export function CodeMirrorEditor({
  control,
  value,
  onChange,
  extensions,
  multiline,
  disabled = false,
  placeholder,
  rows = 1,
  maxChars,
}: CodeMirrorProps) {
  const [refused, setRefused] = useState<string | undefined>();
  const parent = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const attributes = useRef(new Compartment());
  const editable = useRef(new Compartment());
  // The editor is made once; what it calls back is read from here, always the latest.
  const latest = useRef(onChange);
  latest.current = onChange;

  useEffect(() => {
    const created = new EditorView({
      parent: parent.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          extensions,
          history(),
          closeBrackets(),
          keymap.of([...closeBracketsKeymap, ...historyKeymap, ...defaultKeymap]),
          placeholder === undefined ? [] : placeholderText(placeholder),
          attributes.current.of(attributesOf(control, multiline, disabled)),
          editable.current.of(editableOf(disabled)),
          // Refused as a transaction, before the document is made or drawn: a huge paste
          // costs no layout, so the page never stalls on it.
          maxChars === undefined
            ? []
            : EditorState.transactionFilter.of((tr) => {
                if (!tr.docChanged || tr.annotation(fromOutside)) return tr;
                const chars = tr.startState.doc.length + lengthChange(tr.changes);
                if (chars <= maxChars) return tr;
                setRefused(overLimit(chars, maxChars));
                return [];
              }),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged || u.transactions.some((t) => t.annotation(fromOutside))) return;
            setRefused(undefined);
            latest.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
    // Made once per mount; the value, the ids and the disabled state follow below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A label's click focuses only a form control; the editor is not one, so it is done here.
  useEffect(() => {
    const label = document.getElementById(control.labelId);
    const focus = () => view.current?.focus();
    label?.addEventListener('click', focus);
    return () => label?.removeEventListener('click', focus);
  }, [control.labelId]);

  // The value given wins when it differs from the text (undo, redo, an edit from elsewhere).
  useEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === value) return;
    v.dispatch({
      changes: { from: 0, to: v.state.doc.length, insert: value },
      annotations: fromOutside.of(true),
    });
  }, [value]);

  const { id, labelId, describedBy, invalid } = control;
  useEffect(() => {
    view.current?.dispatch({
      effects: [
        attributes.current.reconfigure(
          attributesOf({ id, labelId, describedBy, invalid }, multiline, disabled),
        ),
        editable.current.reconfigure(editableOf(disabled)),
      ],
    });
  }, [id, labelId, describedBy, invalid, multiline, disabled]);

  return (
    <>
      <div
        ref={parent}
        className={`nodrag wf-code${multiline ? ' wf-code--multiline' : ''}${disabled ? ' wf-code--disabled' : ''}`}
        style={multiline ? { ['--wf-code-rows' as string]: Math.min(rows, 20) } : undefined}
      />
      {refused && (
        <p role="alert" className="wf-field__error">
          {refused}
        </p>
      )}
    </>
  );
}

/** How much longer a change makes a document, without making the new document. */
function lengthChange(changes: ChangeSet): number {
  let delta = 0;
  changes.iterChangedRanges((fromA, toA, fromB, toB) => {
    delta += toB - fromB - (toA - fromA);
  });
  return delta;
}

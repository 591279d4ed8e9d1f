import { lazy, Suspense, useId, type ReactNode } from 'react';
import type { ProblemSpan } from '../../../../shared/expressionSyntax.ts';
import { Field } from '../Field.tsx';
import '../../../ui/codeEditor/codeEditor.css';

// CodeMirror is most of the editor's weight: loaded the first time a field shows, not with the app.
const CodeEditor = lazy(() => import('./CodeEditor.tsx').then((m) => ({ default: m.CodeEditor })));

interface CodeFieldProps {
  label: string;
  value: string;
  /** Called on every change, inside one typing session (one undo step until Enter or blur). */
  onCommit: (text: string) => void;
  /** The problem of the text and the characters it is at; its message is shown under the field. */
  check: (text: string) => ProblemSpan | undefined;
  hint?: (text: string) => ReactNode;
  placeholder?: string;
  /** The workspace's secret names, offered in `$secret('…')` (only a call's fields read them). */
  secrets?: readonly string[] | undefined;
  /** Enter makes a new line (a call's body) rather than ending the edit. */
  multiline?: boolean;
}

/**
 * A JSONata field on CodeMirror 6: highlighted, with completion of the flow's context paths and
 * JSONata's functions, and its problem marked at its character as well as said under the field.
 * Every change reaches the store at once, so the node and the problems list follow the typing.
 * Tab is not taken (no focus trap); Escape leaves for the panel.
 */
export function CodeField({
  label,
  value,
  onCommit,
  check,
  hint,
  placeholder,
  secrets,
  multiline,
}: CodeFieldProps) {
  const key = useId();
  const problem = check(value);
  return (
    <Field label={label} error={problem?.message} hint={hint?.(value)}>
      {(control) => (
        <Suspense fallback={<div className="wf-code wf-code--loading">{value}</div>}>
          <CodeEditor
            typingKey={key}
            control={control}
            value={value}
            onCommit={onCommit}
            check={check}
            placeholder={placeholder}
            secrets={secrets}
            multiline={multiline}
          />
        </Suspense>
      )}
    </Field>
  );
}

import type { ReactNode } from 'react';
import { Field } from './Field.tsx';
import { useDraft } from './useDraft.ts';

interface TextFieldProps {
  label: string;
  value: string;
  /** Called on blur or Enter with a text that differs from `value` and is not refused. */
  onCommit: (text: string) => void;
  /** Checked on every keystroke and shown under the field; the text is still committed. */
  check?: (text: string) => string | undefined;
  /** A problem that keeps the text from being committed (a name already taken). */
  refuse?: (text: string) => string | undefined;
  /** A note under the field for the text as typed. */
  hint?: (text: string) => ReactNode;
  hintBeside?: boolean;
  /** Expressions, paths and ids are code: monospaced, no spell checking. */
  code?: boolean;
  placeholder?: string;
  /** A name by which `useFocusAfter` can move focus here. */
  focusName?: string;
}

/** A text input that commits on blur or Enter, with its check shown live on the draft. */
export function TextField({
  label,
  value,
  onCommit,
  check,
  refuse,
  hint,
  hintBeside,
  code = false,
  placeholder,
  focusName,
}: TextFieldProps) {
  const { text, inputProps } = useDraft(value, (t) => {
    if (refuse?.(t) !== undefined) return false;
    onCommit(t);
  });
  const error = refuse?.(text) ?? check?.(text);
  return (
    <Field label={label} error={error} hint={hint?.(text)} hintBeside={hintBeside}>
      {(control) => (
        <input
          {...control}
          {...inputProps}
          type="text"
          className={code ? 'nodrag prop-code' : 'nodrag'}
          spellCheck={!code}
          autoComplete="off"
          placeholder={placeholder}
          data-focus={focusName}
        />
      )}
    </Field>
  );
}

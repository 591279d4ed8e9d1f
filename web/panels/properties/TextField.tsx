import { useId, type KeyboardEvent, type ReactNode } from 'react';
import { endTyping, typedInto, useDesignerStore } from '../../designer/designerStore.ts';
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
  /**
   * Commits every keystroke, so the node's badge and the problems list follow the typing; one
   * typing session is still one undo step. Only for values whose every prefix is safe to hold.
   */
  live?: boolean;
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
  live = false,
}: TextFieldProps) {
  const id = useId();
  const designer = useDesignerStore();
  const { text, inputProps: draftProps } = useDraft(value, (t) => {
    if (refuse?.(t) !== undefined) return false;
    onCommit(t);
  });
  const inputProps = live
    ? {
        value,
        onChange: (e: { target: { value: string } }) =>
          typedInto(designer, id, () => onCommit(e.target.value)),
        onBlur: () => endTyping(designer),
        onKeyDown: (e: KeyboardEvent<HTMLInputElement>) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            endTyping(designer);
          }
        },
      }
    : draftProps;
  const shown = live ? value : text;
  const error = refuse?.(shown) ?? check?.(shown);
  return (
    <Field label={label} error={error} hint={hint?.(shown)} hintBeside={hintBeside}>
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

import { useState, type KeyboardEvent } from 'react';

/**
 * A text being typed, kept apart from the committed value so that typing makes one undo step,
 * on blur or Enter, not one per keystroke. While nothing is being typed the field shows the
 * committed value, so undo and edits from elsewhere show at once.
 *
 * `commit` may return false to refuse the text (say, a name already taken): the draft stays, for
 * the person to fix or to drop with Escape.
 */
export function useDraft(value: string, commit: (text: string) => boolean | void) {
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const text = draft ?? value;

  const finish = () => {
    if (draft === undefined) return;
    if (draft === value || commit(draft) !== false) setDraft(undefined);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      finish();
    } else if (e.key === 'Escape' && draft !== undefined) {
      // Escape drops the draft; it must not also reach the canvas's own Escape.
      e.stopPropagation();
      setDraft(undefined);
    }
  };

  return {
    text,
    inputProps: {
      value: text,
      onChange: (e: { target: { value: string } }) => setDraft(e.target.value),
      onBlur: finish,
      onKeyDown,
    },
  };
}

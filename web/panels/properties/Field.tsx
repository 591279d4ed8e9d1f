import { useId, type ReactNode } from 'react';

export interface ControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

interface FieldProps {
  label: string;
  /** Shown under the control in the error colour; marks the control invalid. */
  error?: string | undefined;
  /** A note under the control (a duration in words, what an empty value means). */
  hint?: ReactNode;
  /** Shows the hint beside the control rather than under it (a duration in words). */
  hintBeside?: boolean;
  /** Renders the control with the ids that tie it to its label and messages. */
  children: (control: ControlProps) => ReactNode;
}

/** A visible label, one control, and its hint and error, tied together for assistive tech. */
export function Field({ label, error, hint, hintBeside = false, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [hint ? hintId : undefined, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={hintBeside ? 'prop-field prop-field-beside' : 'prop-field'}>
      {/* Its id names an editor that is not a form control (CodeField) by aria-labelledby. */}
      <label htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      {children({
        id,
        'aria-describedby': describedBy,
        'aria-invalid': error ? true : undefined,
      })}
      {hint && (
        <p id={hintId} className="prop-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="prop-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A value that cannot be edited here, still labelled, focusable and selectable. */
export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <Field label={label}>
      {(control) => (
        <input
          {...control}
          className="nodrag prop-readonly"
          type="text"
          value={value}
          readOnly
          aria-readonly="true"
          tabIndex={-1}
        />
      )}
    </Field>
  );
}

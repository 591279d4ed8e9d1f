import { useId, type ReactNode } from 'react';

/** What a control inside a Field is given, so that its label, hint and error belong to it. */
export interface FieldControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

export interface FieldProps {
  label: ReactNode;
  /** Said under the control and read with it. */
  hint?: ReactNode;
  /** Why the value is refused; read out when it appears. */
  error?: ReactNode;
  /** Label beside the control rather than above it (checkboxes, short inputs). */
  inline?: boolean;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

/** A labelled control with its hint and error, wired by ids (label for, aria-describedby). */
export function Field({ label, hint, error, inline, className, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [hint ? hintId : undefined, error ? errorId : undefined]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={`wf-field${inline ? ' wf-field--inline' : ''}${className ? ` ${className}` : ''}`}
    >
      {/* Its id names a control that is not a form control (a JsonField) by aria-labelledby. */}
      <label className="wf-field__label" htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      {children({
        id,
        'aria-describedby': described || undefined,
        'aria-invalid': error ? true : undefined,
      })}
      {hint && (
        <p id={hintId} className="wf-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="wf-field__error">
          {error}
        </p>
      )}
    </div>
  );
}

import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from '../ui/Button.tsx';
import { Plus, Trash2 } from '../ui/icons.tsx';

/**
 * One list of the call settings (the allowed origins, the secrets): a heading, a hint, the
 * names kept (each with its own buttons, Remove last) or a line saying there are none, the form
 * that adds one, and a polite status line that says what the last action did.
 */
export function SettingsSection({
  title,
  hint,
  empty,
  names,
  extra,
  onRemove,
  onSubmit,
  fields,
  submitLabel,
  canSubmit,
  told,
}: {
  title: string;
  hint: ReactNode;
  empty: string;
  names: readonly string[];
  /** What an item shows between its name and its Remove button. */
  extra?: (name: string) => ReactNode;
  onRemove: (name: string) => void;
  onSubmit: () => Promise<void>;
  fields: ReactNode;
  submitLabel: string;
  canSubmit: boolean;
  told: string | undefined;
}) {
  const headingId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onSubmit();
  };
  return (
    <section className="call-settings__section" aria-labelledby={headingId}>
      <h3 id={headingId} className="call-settings__heading">
        {title}
      </h3>
      <p className="call-settings__hint">{hint}</p>
      {names.length === 0 ? (
        <p className="call-settings__empty">{empty}</p>
      ) : (
        <ul className="call-settings__list" aria-labelledby={headingId}>
          {names.map((name) => (
            <li key={name} className="call-settings__item">
              <code className="call-settings__name">{name}</code>
              {extra?.(name)}
              <Button
                variant="ghost"
                size="sm"
                icon={<Trash2 size={14} aria-hidden="true" />}
                aria-label={`Remove ${name}`}
                onClick={() => onRemove(name)}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form className="call-settings__form" onSubmit={submit}>
        {fields}
        <Button type="submit" icon={<Plus size={14} aria-hidden="true" />} disabled={!canSubmit}>
          {submitLabel}
        </Button>
      </form>
      <p className="visually-hidden" role="status">
        {told}
      </p>
    </section>
  );
}

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useRuntime } from '../state/runtimeConnection.ts';
import { Button } from '../ui/Button.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { Plus, Trash2 } from '../ui/icons.tsx';
import { checkSecretName } from './callSettingsRules.ts';
import { refreshCallSettings, useCallSettings } from './useCallSettings.ts';
import './calls.css';

/** What stands for a secret's value wherever one is listed: the value itself never is. */
export const SECRET_MASK = '••••';

/**
 * The workspace's call settings (docs/app.md#calls): the origins calls may reach and the
 * secrets `$secret('name')` reads. A secret's value is typed into a password field that is not
 * bound to any state (React would mirror a controlled value into the `value` attribute), sent
 * to the runtime worker, cleared, and never read back: the list shows names and a mask.
 */
export function CallSettingsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const runtime = useRuntime();
  useEffect(() => {
    if (open) refreshCallSettings(runtime);
  }, [open, runtime]);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Call settings"
      description="What this workspace's calls may reach, and the secrets they send. Kept in this browser only: never exported, never in a journal."
      size="md"
    >
      <div className="call-settings">
        <OriginsSection />
        <SecretsSection />
      </div>
    </Dialog>
  );
}

function OriginsSection() {
  const { view, actions } = useCallSettings();
  const headingId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [told, setTold] = useState<string>();
  const origins = view?.origins ?? [];
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!actions) return;
    const added = await actions.allowOrigin(text);
    if (!added.ok) return setError(added.error);
    setError(undefined);
    setText('');
    setTold(`${added.value} is allowed`);
  };
  return (
    <section className="call-settings__section" aria-labelledby={headingId}>
      <h3 id={headingId} className="call-settings__heading">
        Allowed origins
      </h3>
      <p className="call-settings__hint">
        A call to any other origin is refused before it is sent.
      </p>
      {origins.length === 0 ? (
        <p className="call-settings__empty">None yet: no call can be sent.</p>
      ) : (
        <ul className="call-settings__list" aria-labelledby={headingId}>
          {origins.map((origin) => (
            <li key={origin} className="call-settings__item">
              <code className="call-settings__name">{origin}</code>
              <Button
                variant="ghost"
                size="sm"
                icon={<Trash2 size={14} aria-hidden="true" />}
                aria-label={`Remove ${origin}`}
                onClick={() => {
                  void actions?.removeOrigin(origin);
                  setTold(`${origin} is no longer allowed`);
                }}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form className="call-settings__form" onSubmit={(e) => void submit(e)}>
        <Field label="Origin" error={error} className="call-settings__grow">
          {(control) => (
            <input
              {...control}
              className="wf-input prop-code"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="https://shop.example"
              spellCheck={false}
              autoComplete="off"
            />
          )}
        </Field>
        <Button type="submit" icon={<Plus size={14} aria-hidden="true" />} disabled={!actions}>
          Allow
        </Button>
      </form>
      <p className="visually-hidden" role="status">
        {told}
      </p>
    </section>
  );
}

function SecretsSection() {
  const { view, actions } = useCallSettings();
  const headingId = useId();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [error, setError] = useState<string>();
  const [told, setTold] = useState<string>();
  const value = useRef<HTMLInputElement>(null);
  const secrets = view?.secrets ?? [];
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const input = value.current;
    if (!actions || !input) return;
    const named = checkSecretName(name);
    setNameError(named.ok ? undefined : named.error);
    if (!named.ok) return;
    const replacing = secrets.includes(name);
    const saved = await actions.setSecret(name, input.value);
    if (!saved.ok) return setError(saved.error);
    // Gone from the page at once: the worker holds the value now.
    input.value = '';
    setError(undefined);
    setName('');
    setTold(`Secret ${saved.value} ${replacing ? 'replaced' : 'saved'}`);
  };
  return (
    <section className="call-settings__section" aria-labelledby={headingId}>
      <h3 id={headingId} className="call-settings__heading">
        Secrets
      </h3>
      <p className="call-settings__hint">
        Read by <code>$secret('name')</code> in a call's URL, headers or body, and put in as the
        request is sent. A value is never shown again once saved.
      </p>
      {secrets.length === 0 ? (
        <p className="call-settings__empty">None yet.</p>
      ) : (
        <ul className="call-settings__list" aria-labelledby={headingId}>
          {secrets.map((secret) => (
            <li key={secret} className="call-settings__item">
              <code className="call-settings__name">{secret}</code>
              <span className="call-settings__mask" aria-label="value hidden" role="img">
                {SECRET_MASK}
              </span>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Replace ${secret}`}
                onClick={() => {
                  setName(secret);
                  value.current?.focus();
                }}
              >
                Replace
              </Button>
              <Button
                variant="ghost"
                size="sm"
                icon={<Trash2 size={14} aria-hidden="true" />}
                aria-label={`Remove ${secret}`}
                onClick={() => {
                  void actions?.removeSecret(secret);
                  setTold(`Secret ${secret} removed`);
                }}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form className="call-settings__form" onSubmit={(e) => void submit(e)}>
        <Field label="Name" error={nameError} className="call-settings__name-field">
          {(control) => (
            <input
              {...control}
              className="wf-input prop-code"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="shop"
              spellCheck={false}
              autoComplete="off"
            />
          )}
        </Field>
        <Field label="Value" error={error} className="call-settings__grow">
          {(control) => (
            <input
              {...control}
              ref={value}
              type="password"
              className="wf-input"
              autoComplete="new-password"
              spellCheck={false}
            />
          )}
        </Field>
        <Button type="submit" icon={<Plus size={14} aria-hidden="true" />} disabled={!actions}>
          Save secret
        </Button>
      </form>
      <p className="visually-hidden" role="status">
        {told}
      </p>
    </section>
  );
}

import { useEffect, useRef, useState } from 'react';
import { useRuntime } from '../state/runtimeConnection.ts';
import { Button } from '../ui/Button.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { checkSecretName } from './callSettingsRules.ts';
import { SettingsSection } from './SettingsSection.tsx';
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
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [told, setTold] = useState<string>();
  const submit = async () => {
    if (!actions) return;
    const added = await actions.allowOrigin(text);
    if (!added.ok) return setError(added.error);
    setError(undefined);
    setText('');
    setTold(`${added.value} is allowed`);
  };
  return (
    <SettingsSection
      title="Allowed origins"
      hint="A call to any other origin is refused before it is sent."
      empty="None yet: no call can be sent."
      names={view?.origins ?? []}
      onRemove={(origin) => {
        void actions?.removeOrigin(origin);
        setTold(`${origin} is no longer allowed`);
      }}
      onSubmit={submit}
      submitLabel="Allow"
      canSubmit={actions !== undefined}
      told={told}
      fields={
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
      }
    />
  );
}

function SecretsSection() {
  const { view, actions } = useCallSettings();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [error, setError] = useState<string>();
  const [told, setTold] = useState<string>();
  const value = useRef<HTMLInputElement>(null);
  const secrets = view?.secrets ?? [];
  const submit = async () => {
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
    <SettingsSection
      title="Secrets"
      hint={
        <>
          Read by <code>$secret('name')</code> in a call's URL, headers or body, and put in as the
          request is sent. A value is never shown again once saved.
        </>
      }
      empty="None yet."
      names={secrets}
      extra={(secret) => (
        <>
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
        </>
      )}
      onRemove={(secret) => {
        void actions?.removeSecret(secret);
        setTold(`Secret ${secret} removed`);
      }}
      onSubmit={submit}
      submitLabel="Save secret"
      canSubmit={actions !== undefined}
      told={told}
      fields={
        <>
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
        </>
      }
    />
  );
}

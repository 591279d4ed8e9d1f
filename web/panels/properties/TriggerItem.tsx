import { HTTP_METHODS, type Trigger } from '../../../shared/schema.ts';
import {
  callTimeoutCheck,
  durationCheck,
  durationInWords,
  eventNameRefusal,
  optionalPathCheck,
} from './checks.ts';
import { CallFields, CallUrlField } from './CallFields.tsx';
import { HumanFormFields } from './HumanFormFields.tsx';
import { CallTest } from '../../calls/CallTest.tsx';
import { TextField } from './TextField.tsx';
import {
  setCall,
  setHuman,
  setTriggerField,
  triggerIdProblem,
  triggerKind,
  type TriggerKind,
} from './triggerEdits.ts';

const KIND_WORDS: Record<TriggerKind, string> = {
  timer: 'Timer',
  event: 'Event',
  human: 'Human',
  call: 'Call',
};

const methodRefusal = (text: string): string | undefined =>
  text === '' || (HTTP_METHODS as readonly string[]).includes(text)
    ? undefined
    : `a call's method is one of ${HTTP_METHODS.join(', ')}`;

interface TriggerItemProps {
  triggers: readonly Trigger[];
  index: number;
  trigger: Trigger;
  /** Changes this node's triggers as one edit. */
  onChange: (edit: (on: Trigger[]) => Trigger[]) => void;
  onRename: (id: string) => void;
  onRemove: () => void;
}

/** One trigger's fields: its id, then what its kind needs. */
export function TriggerItem({
  triggers,
  index,
  trigger,
  onChange,
  onRename,
  onRemove,
}: TriggerItemProps) {
  const kind = triggerKind(trigger);
  const name = `${KIND_WORDS[kind]} "${trigger.id}"`;
  const setField = (field: 'timer' | 'event' | 'into') => (text: string) =>
    onChange((on) => setTriggerField(on, index, field, text));

  return (
    <li>
      <fieldset className="prop-row">
        <legend>{name}</legend>
        <TextField
          label="Trigger id"
          value={trigger.id}
          code
          focusName={`trigger-${index}-id`}
          refuse={(text) => triggerIdProblem(triggers, index, text)}
          onCommit={onRename}
        />
        {kind === 'timer' && (
          <TextField
            label="Wait for (ISO 8601 duration)"
            live
            value={trigger.timer ?? ''}
            code
            placeholder="PT24H"
            check={durationCheck}
            hint={durationInWords}
            hintBeside
            onCommit={setField('timer')}
          />
        )}
        {kind === 'event' && (
          <TextField
            label="Event name"
            value={trigger.event ?? ''}
            code
            refuse={eventNameRefusal}
            onCommit={setField('event')}
          />
        )}
        {kind === 'human' && (
          <TextField
            label="Prompt"
            live
            value={trigger.human?.prompt ?? ''}
            onCommit={(prompt) => onChange((on) => setHuman(on, index, { prompt }))}
          />
        )}
        {kind === 'call' && (
          <>
            <TextField
              label="Method"
              value={trigger.call?.method ?? ''}
              code
              placeholder="GET"
              refuse={methodRefusal}
              onCommit={(text) => onChange((on) => setCall(on, index, 'method', text))}
            />
            {trigger.call && <CallUrlField index={index} call={trigger.call} onChange={onChange} />}
            <TextField
              label="Timeout (ISO 8601 duration, optional)"
              live
              value={trigger.call?.timeout ?? ''}
              code
              placeholder="PT30S"
              check={callTimeoutCheck}
              hint={(text) => (text === '' ? 'Empty: 30 seconds.' : durationInWords(text))}
              hintBeside
              onCommit={(text) => onChange((on) => setCall(on, index, 'timeout', text))}
            />
            {trigger.call && <CallFields index={index} call={trigger.call} onChange={onChange} />}
            {trigger.call && <CallTest trigger={{ ...trigger, call: trigger.call }} />}
          </>
        )}
        {kind !== 'timer' && (
          <TextField
            label={
              kind === 'event'
                ? 'Write the payload into (optional)'
                : kind === 'call'
                  ? 'Write the outcome into'
                  : 'Write the input into'
            }
            value={trigger.into ?? ''}
            code
            placeholder="context.path"
            check={optionalPathCheck}
            hint={(text) => (text === '' ? 'Empty: the value is not kept.' : undefined)}
            onCommit={setField('into')}
          />
        )}
        {kind === 'human' && (
          <HumanFormFields
            triggerIndex={index}
            fields={trigger.human?.fields ?? []}
            onChange={(edit) =>
              onChange((on) =>
                setHuman(on, index, { fields: edit(on[index]?.human?.fields ?? []) }),
              )
            }
          />
        )}
        <div className="prop-row-actions">
          <button
            type="button"
            data-focus={`trigger-${index}-remove`}
            aria-label={`Remove trigger "${trigger.id}"`}
            onClick={onRemove}
          >
            Remove trigger
          </button>
        </div>
      </fieldset>
    </li>
  );
}

import { memo, useId, useState, type FormEvent, type MouseEvent } from 'react';
import { parseJsonText } from '../../shared/jsonText.ts';
import type { HumanField, Trigger } from '../../shared/schema.ts';
import { waitsWithTriggers } from '../../runtime/engine/waits.ts';
import { callWaitsOf } from '../../runtime/supervisor/callWaits.ts';
import { labelledControl } from '../ui/codeEditor/editorControl.ts';
import { JsonField } from '../ui/codeEditor/JsonField.tsx';
import { Button } from '../ui/Button.tsx';
import { Check, Mail } from '../ui/icons.tsx';
import { useAct } from './act.ts';
import { answerHuman, deliverEventTo } from './waitActions.ts';
import { CallWaitView } from './CallWaitView.tsx';
import { useInspectionOf } from './useInspectionOf.ts';

/**
 * What the process waits for that a designer can give it: a form for each waiting human
 * trigger, built from its fields, one to deliver an event when it waits for one (none
 * otherwise: no flow of timers alone offers an event to send), and each call it waits on, with
 * its attempts and a button to send the next now (CallWaitView.tsx).
 */
export function WaitForms() {
  const inspection = useInspectionOf(['record', 'flows']);
  const { record, flows } = inspection;
  if (record.status !== 'waiting') return null;
  const waits = waitsWithTriggers(record.snapshot, (f) => flows.get(f));
  const humans = waits.flatMap((w) =>
    w.triggers.filter((t) => t.human).map((t) => ({ path: w.path, seq: w.seq, trigger: t })),
  );
  const events = [
    ...new Set(waits.flatMap((w) => w.triggers.flatMap((t) => (t.event ? [t.event] : [])))),
  ];
  const calls = callWaitsOf(record.snapshot);
  if (humans.length === 0 && events.length === 0 && calls.length === 0) return null;
  const since = new Map(waits.map((w) => [w.seq, w.since]));
  return (
    <section className="inspector-panel wait-forms" aria-labelledby="wait-forms-heading">
      <h3 id="wait-forms-heading">
        {humans.length === 0 && events.length === 0 ? 'Waiting for an answer' : 'Waiting for you'}
      </h3>
      {calls.map((wait) => (
        <CallWaitView
          key={`${wait.node}/${wait.seq}`}
          processId={record.id}
          wait={wait}
          since={since.get(wait.seq) ?? 0}
        />
      ))}
      {humans.map(({ path, seq, trigger }) => (
        // Keyed by the wait too: the next pass's form starts empty, bound to its own wait.
        <HumanForm
          key={`${path}/${trigger.id}/${seq}`}
          processId={record.id}
          path={path}
          seq={seq}
          trigger={trigger}
        />
      ))}
      {events.length > 0 && <EventFormOf processId={record.id} suggestions={events} />}
    </section>
  );
}

/** A waiting human trigger's form, built from its fields; also opened from its node (WaitActions.tsx). */
export function HumanForm({
  processId,
  path,
  seq,
  trigger,
  onAnswered,
}: {
  processId: string;
  path: string;
  /** The wait this form answers: an answer after it is over is refused. */
  seq: number;
  trigger: Trigger;
  /** Told when the answer was taken (the node's popover closes then). */
  onAnswered?: () => void;
}) {
  const act = useAct();
  const fields = trigger.human?.fields ?? [];
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const heading = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input: Record<string, unknown> = {};
    for (const f of fields) input[f.name] = valueOf(f, values[f.name]);
    void act(answerHuman(processId, path, input, trigger.id, seq)).then((ok) => {
      if (ok) onAnswered?.();
    });
  };
  return (
    <form className="human-form" aria-labelledby={heading} onSubmit={submit}>
      <h4 id={heading}>
        {trigger.human?.prompt || `Answer ${trigger.id}`} <span className="hint">({path})</span>
      </h4>
      {fields.map((f) => (
        <label key={f.name}>
          {f.label ?? f.name}{' '}
          {f.type === 'boolean' ? (
            <input
              type="checkbox"
              checked={values[f.name] === true}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.checked }))}
            />
          ) : (
            <input
              className="wf-input"
              type={f.type === 'number' ? 'number' : 'text'}
              value={String(values[f.name] ?? '')}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
            />
          )}
        </label>
      ))}
      <Button
        type="submit"
        variant="primary"
        size="sm"
        icon={<Check size={14} aria-hidden="true" />}
        onClick={onePressOnly}
      >
        Send answer
      </Button>
    </form>
  );
}

/**
 * The second click of a double-click is the same press, not a second answer: without this it
 * could land on the form of the next pass, drawn in between, and answer that one too.
 */
function onePressOnly(e: MouseEvent<HTMLButtonElement>) {
  if (e.detail > 1) e.preventDefault();
}

function valueOf(field: HumanField, raw: string | boolean | undefined): unknown {
  if (field.type === 'boolean') return raw === true;
  if (field.type === 'number') return raw === undefined || raw === '' ? undefined : Number(raw);
  return typeof raw === 'string' ? raw : '';
}

/** Renders when the events offered changed, not on every reading of the waiting process. */
const EventFormOf = memo(
  EventForm,
  (a, b) => a.processId === b.processId && a.suggestions.join('\n') === b.suggestions.join('\n'),
);

/**
 * Delivers an event with a payload. In the waits panel the name is typed (the events waited for
 * suggested); from a node (WaitActions.tsx) it is the trigger's event, fixed.
 */
export function EventForm({
  processId,
  suggestions,
  fixed = false,
  onDelivered,
}: {
  processId: string;
  suggestions: string[];
  /** The first suggestion is the event, not to be changed: no name field. */
  fixed?: boolean;
  onDelivered?: () => void;
}) {
  const act = useAct();
  const [name, setName] = useState(suggestions[0] ?? '');
  const [payload, setPayload] = useState('{}');
  const [problem, setProblem] = useState<string | undefined>();
  const ids = { name: useId(), payload: useId(), list: useId(), problem: useId() };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseJsonText(payload);
    if (!parsed.ok) return setProblem(`The payload is not valid JSON: ${parsed.error}`);
    setProblem(undefined);
    void act(deliverEventTo(processId, name, parsed.value)).then((ok) => {
      if (ok) onDelivered?.();
    });
  };
  return (
    <form
      className="event-form"
      aria-label={fixed ? `Deliver ${name}` : 'Deliver event'}
      onSubmit={submit}
    >
      {!fixed && (
        <>
          <label htmlFor={ids.name}>Event name</label>
          <input
            className="wf-input"
            id={ids.name}
            list={ids.list}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
          />
          <datalist id={ids.list}>
            {suggestions.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        </>
      )}
      <label htmlFor={ids.payload} id={`${ids.payload}-label`}>
        Payload (JSON)
      </label>
      <JsonField
        control={labelledControl(ids.payload, problem && ids.problem)}
        rows={2}
        value={payload}
        onChange={setPayload}
      />
      {problem && (
        <p id={ids.problem} className="error">
          {problem}
        </p>
      )}
      <Button type="submit" size="sm" icon={<Mail size={14} aria-hidden="true" />}>
        Deliver event
      </Button>
    </form>
  );
}

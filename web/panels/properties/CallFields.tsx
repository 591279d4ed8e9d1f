import { useId, useState } from 'react';
import type { ProblemSpan } from '../../../shared/expressionSyntax.ts';
import type { Call, Trigger } from '../../../shared/schema.ts';
import { useCallSettings } from '../../calls/useCallSettings.ts';
import {
  addHeader,
  callFieldProblem,
  headerNameDraftProblem,
  headerNameRefusal,
  removeHeader,
  renameHeader,
  retryDraftProblem,
  retryRefusal,
  retryText,
  setBody,
  setHeaderValue,
  setRetryField,
  setRetryOn,
  type RetryField,
} from './callEdits.ts';
import { durationInWords, expressionCheckAt } from './checks.ts';
import { CodeField } from './codeEditor/CodeField.tsx';
import { indexAfterRemoval } from './listEdits.ts';
import { TextField } from './TextField.tsx';
import { setCall } from './triggerEdits.ts';
import { useFocusAfter } from './useFocusAfter.ts';

type Edit = (edit: (on: Trigger[]) => Trigger[]) => void;

interface CallPartProps {
  index: number;
  call: Call;
  onChange: Edit;
}

/**
 * A problem as an expression editor marks it: the parse error at its characters, else what
 * validation says of that field of the call (a `$secret` misused, a URL that is not http) over the
 * whole text, so the field shows what the problems list shows.
 */
const checkAt =
  (call: Call, field: string) =>
  (text: string): ProblemSpan | undefined => {
    const parse = expressionCheckAt(text);
    if (parse) return parse;
    const message = callFieldProblem(call, field);
    return message === undefined ? undefined : { message, from: 0, to: text.length };
  };

/** The secret names of the workspace, for completion: names only, never a value. */
function useSecretNames(): readonly string[] {
  return useCallSettings().view?.secrets ?? NO_NAMES;
}
const NO_NAMES: readonly string[] = [];

/** A call's URL, as an expression editor that completes context paths and secret names. */
export function CallUrlField({ index, call, onChange }: CallPartProps) {
  const secrets = useSecretNames();
  return (
    <CodeField
      label="URL (JSONata)"
      value={call.url}
      placeholder="'https://shop.example/api'"
      check={checkAt(call, 'url')}
      secrets={secrets}
      onCommit={(url) => onChange((on) => setCall(on, index, 'url', url))}
    />
  );
}

/** The rest of a call (docs/format.md#calls): its headers, body and retry. */
export function CallFields(props: CallPartProps) {
  return (
    <>
      <CallHeaders {...props} />
      <CallBody {...props} />
      <CallRetry {...props} />
    </>
  );
}

function CallHeaders({ index, call, onChange }: CallPartProps) {
  const secrets = useSecretNames();
  const { container, focusAfter } = useFocusAfter<HTMLFieldSetElement>();
  // See WorkFields: a removal re-keys the rows so that no draft moves to another header.
  const [layout, setLayout] = useState(0);
  const headers = call.headers ?? {};
  const entries = Object.entries(headers);
  const prefix = `trigger-${index}-header`;
  const countProblem = callFieldProblem(call, 'headers');

  const add = () => {
    focusAfter(`${prefix}-${entries.length}-name`);
    onChange((on) => addHeader(on, index));
  };
  const remove = (row: number) => {
    focusAfter(`${prefix}-${indexAfterRemoval(entries.length, row)}-remove`, `${prefix}-add`);
    setLayout((l) => l + 1);
    onChange((on) => removeHeader(on, index, row));
  };

  return (
    <fieldset className="prop-group" ref={container}>
      <legend>Headers</legend>
      <p className="prop-hint">
        Each value is JSONata; <code>$secret(&apos;name&apos;)</code> reads a secret of Call
        settings. The runtime adds Idempotency-Key itself.
      </p>
      {countProblem && <p className="prop-error">{countProblem}</p>}
      {entries.length > 0 && (
        <ul className="prop-rows" key={layout}>
          {entries.map(([name, value], row) => (
            <li key={row}>
              <fieldset className="prop-row">
                <legend>Header {row + 1}</legend>
                <TextField
                  label="Name"
                  value={name}
                  code
                  focusName={`${prefix}-${row}-name`}
                  refuse={(text) => headerNameRefusal(headers, row, text)}
                  check={(text) => headerNameDraftProblem(call, row, text)}
                  onCommit={(text) => onChange((on) => renameHeader(on, index, row, text))}
                />
                <CodeField
                  label="Value (JSONata)"
                  value={value}
                  check={checkAt(call, `header-value:${name}`)}
                  secrets={secrets}
                  onCommit={(text) => onChange((on) => setHeaderValue(on, index, row, text))}
                />
                <div className="prop-row-actions">
                  <button
                    type="button"
                    data-focus={`${prefix}-${row}-remove`}
                    aria-label={`Remove header ${name}`}
                    onClick={() => remove(row)}
                  >
                    Remove
                  </button>
                </div>
              </fieldset>
            </li>
          ))}
        </ul>
      )}
      <div className="prop-row-actions">
        <button type="button" data-focus={`${prefix}-add`} onClick={add}>
          Add header
        </button>
      </div>
    </fieldset>
  );
}

function CallBody({ index, call, onChange }: CallPartProps) {
  const secrets = useSecretNames();
  return (
    <CodeField
      label="Body (JSONata, sent as JSON; optional)"
      value={call.body ?? ''}
      placeholder="{ 'amount': order.total }"
      multiline
      check={(text) => (text.trim() === '' ? undefined : checkAt(call, 'body')(text))}
      hint={(text) => (text.trim() === '' ? 'Empty: no body is sent.' : undefined)}
      secrets={secrets}
      onCommit={(text) => onChange((on) => setBody(on, index, text))}
    />
  );
}

const RETRY_FIELDS: {
  field: RetryField;
  label: string;
  placeholder: string;
  duration?: true;
}[] = [
  { field: 'max', label: 'Retries at most (after the first attempt)', placeholder: '3' },
  {
    field: 'interval',
    label: 'First wait (ISO 8601 duration)',
    placeholder: 'PT1S',
    duration: true,
  },
  { field: 'backoff', label: 'Each wait longer by (×)', placeholder: '2' },
  {
    field: 'maxInterval',
    label: 'Longest wait (ISO 8601 duration)',
    placeholder: 'PT1H',
    duration: true,
  },
  {
    field: 'on',
    label: 'Retry on (statuses, network, timeout)',
    placeholder: '429, 500, 503, network, timeout',
  },
];

function CallRetry({ index, call, onChange }: CallPartProps) {
  const hintId = useId();
  const retry = call.retry;
  return (
    <fieldset className="prop-group">
      <legend>Retry</legend>
      <label className="prop-check">
        <input
          className="nodrag"
          type="checkbox"
          checked={retry !== undefined}
          aria-describedby={hintId}
          onChange={(e) => onChange((on) => setRetryOn(on, index, e.target.checked))}
        />{' '}
        Retry failed attempts
      </label>
      <p id={hintId} className="prop-hint">
        {retry === undefined
          ? 'The call is attempted once; a failure is its outcome.'
          : 'A failure listed below is tried again with the same Idempotency-Key, each wait longer than the last.'}
      </p>
      {retry !== undefined &&
        RETRY_FIELDS.map(({ field, label, placeholder, duration }) => (
          <TextField
            key={field}
            label={label}
            value={retryText(retry, field)}
            code
            placeholder={placeholder}
            focusName={`trigger-${index}-retry-${field}`}
            refuse={(text) => retryRefusal(field, text)}
            check={(text) => retryDraftProblem(call, field, text)}
            hint={(text) =>
              text.trim() === ''
                ? field === 'on'
                  ? 'Empty: 429, every 5xx, network and timeout.'
                  : `Empty: ${placeholder}.`
                : duration
                  ? durationInWords(text)
                  : undefined
            }
            hintBeside={duration}
            onCommit={(text) => onChange((on) => setRetryField(on, index, field, text))}
          />
        ))}
    </fieldset>
  );
}

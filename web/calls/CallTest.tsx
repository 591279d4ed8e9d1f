import { useId, useState } from 'react';
import type { Call, Trigger } from '../../shared/schema.ts';
import type { TestRequestResult } from '../runtime/testRequest.ts';
import { useRuntime } from '../state/runtimeConnection.ts';
import { Button } from '../ui/Button.tsx';
import { Play, Plus } from '../ui/icons.tsx';
import { PinAnswer, PinnedCall } from './CallPin.tsx';
import { literalOrigin } from './literalOrigin.ts';
import { useCallSettings } from './useCallSettings.ts';
import './calls.css';

/**
 * A call trigger's two offers in the properties panel (docs/app.md#calls): to allow the origin
 * its URL names when the workspace does not, and to send one test request, whose answer (or
 * refusal) is shown here. The request is evaluated against an empty context and sent by the
 * runtime worker, under the same allowlist, secrets and policy as a process's calls; no process
 * starts and nothing is journaled.
 */
export function CallTest({ trigger }: { trigger: Trigger & { call: Call } }) {
  const runtime = useRuntime();
  const { view, actions } = useCallSettings();
  const [sending, setSending] = useState(false);
  const [shown, setShown] = useState<{ trigger: string; result: TestRequestResult }>();
  const resultId = useId();
  const origin = literalOrigin(trigger.call.url ?? '');
  const notAllowed = origin !== undefined && view !== undefined && !view.origins.includes(origin);

  const send = async () => {
    if (!runtime) return;
    setSending(true);
    try {
      // A plain copy: the designer's trigger may carry more than a message can hold.
      const result = await runtime.testRequest(
        JSON.parse(JSON.stringify(trigger)) as typeof trigger,
      );
      setShown({ trigger: trigger.id, result });
    } catch (e) {
      setShown({
        trigger: trigger.id,
        result: { kind: 'problem', message: e instanceof Error ? e.message : String(e) },
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="call-test">
      <PinnedCall trigger={trigger.id} />
      {notAllowed && (
        <p className="call-test__notice">
          <span>
            <code>{origin}</code> is not allowed
          </span>
          <Button
            size="sm"
            icon={<Plus size={14} aria-hidden="true" />}
            aria-label={`Allow ${origin}`}
            onClick={() => void actions?.allowOrigin(origin)}
          >
            Allow
          </Button>
        </p>
      )}
      <div>
        <Button
          size="sm"
          icon={<Play size={14} aria-hidden="true" />}
          disabled={!runtime || sending}
          aria-describedby={shown ? resultId : undefined}
          onClick={() => void send()}
        >
          {sending ? 'Sending…' : 'Send a test request'}
        </Button>
      </div>
      <div id={resultId} role="status" aria-live="polite">
        {shown?.trigger === trigger.id && <TestAnswer result={shown.result} />}
      </div>
      {shown?.trigger === trigger.id && shown.result.kind === 'answer' && shown.result.pinnable && (
        <PinAnswer trigger={trigger.id} answer={shown.result.pinnable} />
      )}
    </div>
  );
}

function TestAnswer({ result }: { result: TestRequestResult }) {
  if (result.kind === 'problem') {
    return (
      <div className="call-test__answer" aria-label="Test request">
        <p className="call-test__status call-test__status--failed">Not sent</p>
        <p className="call-test__message">{result.message}</p>
      </div>
    );
  }
  const answered = result.status !== 0;
  return (
    <div className="call-test__answer" aria-label="Test answer">
      <p className={`call-test__status call-test__status--${result.ok ? 'ok' : 'failed'}`}>
        {answered ? `Status ${result.status}` : result.sent ? 'No answer' : 'Not sent'}
        {result.sent ? ` · ${result.durationMs.toLocaleString('en')} ms` : ''}
      </p>
      {result.error && <p className="call-test__message">{explain(result.error)}</p>}
      <p className="call-test__message">
        <code>
          {result.request.method} {result.request.url}
        </code>
      </p>
      {result.headers.length > 0 && (
        <details>
          <summary>Headers ({result.headers.length})</summary>
          <dl className="call-test__headers">
            {result.headers.map(([name, value]) => (
              <div key={name} style={{ display: 'contents' }}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      {answered && (
        <>
          <pre className="call-test__body" aria-label="Answer body" tabIndex={0}>
            {result.body === '' ? '(no body)' : result.body}
          </pre>
          {result.bodyTruncated && (
            <p className="call-test__message">
              Cut at {result.body.length.toLocaleString('en')} characters.
            </p>
          )}
        </>
      )}
    </div>
  );
}

/** A refusal as the panel says it: an origin not allowed names the way to allow it. */
function explain(error: string): string {
  if (error === 'refused: origin not allowed')
    return 'Refused: this origin is not allowed. Allow it here or in Call settings.';
  return error;
}

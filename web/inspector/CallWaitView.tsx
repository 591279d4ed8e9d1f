import { useId } from 'react';
import type { CallWait } from '../../runtime/calls/callSender.ts';
import { idempotencyKey } from '../../runtime/calls/idempotencyKey.ts';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import { Button } from '../ui/Button.tsx';
import { Send } from '../ui/icons.tsx';
import { useHandler } from '../ui/useHandler.ts';
import { useAct } from './act.ts';
import { sendCallNowTo } from './waitActions.ts';
import { Countdown } from './Countdown.tsx';
import { maskedBody, maskSecrets } from './maskSecrets.ts';
import { useInspectionOf } from './useInspectionOf.ts';

type Attempt = Extract<JournalEntry, { type: 'call-attempt' }>;

/**
 * The attempts of one call wait in the journal read: those its entries name by the wait's number
 * (branches of a fan-out may wait at the same node at once), since the process fell asleep there.
 */
function attemptsOf(journal: readonly JournalEntry[], wait: CallWait, since: number): Attempt[] {
  return journal.filter(
    (e): e is Attempt =>
      e.type === 'call-attempt' && e.wait === wait.seq && e.node === wait.node && e.at >= since,
  );
}

/**
 * A call the process waits on (docs/format.md#calls): the request as recorded (a secret by its
 * name, never its value), its Idempotency-Key, each attempt so far, when the next is due, and a
 * button that sends the next attempt now.
 */
export function CallWaitView({
  processId,
  wait,
  since,
}: {
  processId: string;
  wait: CallWait;
  /** When the process fell asleep at the wait. */
  since: number;
}) {
  const { calls, journal } = useInspectionOf(['calls', 'journal']);
  const act = useAct();
  const ids = { heading: useId(), reason: useId() };
  const progress = calls.find((c) => c.seq === wait.seq);
  const attempts = attemptsOf(journal, wait, since);
  const { call } = wait;
  const headers = Object.entries(call.headers);
  const body = maskedBody(call.body);
  // No progress yet: the first attempt is being sent as the process reached the call.
  const due = progress?.due ?? null;
  const inFlight = due === null;
  const sendNow = useHandler(() => act(sendCallNowTo(processId, wait)));
  return (
    <section className="call-wait" aria-labelledby={ids.heading}>
      <h4 id={ids.heading}>
        Call at {wait.node} <span className="hint">(answers {call.trigger})</span>
      </h4>
      <p className="call-wait__request">
        <strong>{call.method}</strong> <code>{maskSecrets(call.url)}</code>
      </p>
      <dl className="call-wait__details">
        {headers.length > 0 && (
          <>
            <dt>Headers</dt>
            <dd>
              <ul aria-label="Headers">
                {headers.map(([name, value]) => (
                  <li key={name}>
                    <code>
                      {name}: {maskSecrets(value)}
                    </code>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {body && (
          <>
            <dt>Body</dt>
            <dd>
              <pre className="call-wait__body">{body}</pre>
            </dd>
          </>
        )}
        <dt>Idempotency-Key</dt>
        <dd>
          <code aria-label="Idempotency-Key">{idempotencyKey(processId, wait)}</code>
        </dd>
        <dt>Attempts</dt>
        <dd>
          {attempts.length === 0 ? (
            <span className="hint">none yet</span>
          ) : (
            <ol className="call-wait__attempts" aria-label="Attempts">
              {attempts.map((a) => (
                <li key={`${a.attempt}@${a.at}`}>
                  Attempt {a.attempt} → {a.error ?? a.status}{' '}
                  <span className="hint">
                    {a.pinned ? '(answered by its pin)' : `(${a.ms} ms)`}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </dd>
        <dt>Next attempt</dt>
        <dd>
          {due === null ? (
            'in flight'
          ) : (
            <span data-testid="call-next-due">
              attempt {(progress?.attempts ?? 0) + 1}, <Countdown due={due} />
            </span>
          )}
        </dd>
      </dl>
      <Button
        size="sm"
        icon={<Send size={14} aria-hidden="true" />}
        disabled={inFlight}
        aria-describedby={inFlight ? ids.reason : undefined}
        onClick={sendNow}
      >
        Send next attempt now
      </Button>
      {inFlight && (
        <p id={ids.reason} className="hint">
          An attempt is in flight: wait for its answer.
        </p>
      )}
    </section>
  );
}

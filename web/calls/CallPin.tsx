import { useState } from 'react';
import type { Pin } from '../../shared/pins.ts';
import { useRuntime } from '../state/runtimeConnection.ts';
import { useCapability } from '../state/useCapability.ts';
import { Button } from '../ui/Button.tsx';
import { Pin as PinIcon, PinOff } from '../ui/icons.tsx';
import { Unavailable } from '../ui/Unavailable.tsx';
import { useOpenFlowId, usePanelNode, usePinOf } from './usePins.ts';

/**
 * A call's pin in the properties panel (docs/app.md#calls): when the call is pinned, what answers
 * it and an Unpin button. A pinned call is answered by its pin, and nothing is sent, in every
 * process of the workspace (docs/format.md#pinned-answers).
 */
export function PinnedCall({ trigger }: { trigger: string }) {
  const runtime = useRuntime();
  const flow = useOpenFlowId();
  const node = usePanelNode();
  const pin = usePinOf(node, trigger);
  const [problem, setProblem] = useState<string>();
  if (!pin || flow === undefined || node === undefined) return null;
  const unpin = async () => {
    try {
      await runtime?.unpinCall({ flow, node, trigger });
      setProblem(undefined);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div className="call-pin" role="group" aria-label="Pinned answer">
      <p className="call-pin__text">
        <PinIcon size={14} aria-hidden="true" className="call-pin__icon" />
        <span>
          Answered by a pin: <strong>status {pin.status}</strong>. Processes do not send this call.
        </span>
      </p>
      <Button
        size="sm"
        icon={<PinOff size={14} aria-hidden="true" />}
        aria-label={`Unpin the answer of ${trigger}`}
        onClick={() => void unpin()}
      >
        Unpin
      </Button>
      {problem && <p className="call-test__message">{problem}</p>}
    </div>
  );
}

/**
 * "Pin this answer" under a test request's answer: the answer then answers the call. A runtime
 * that keeps no pins says why in its place.
 */
export function PinAnswer(props: {
  trigger: string;
  answer: Pick<Pin, 'status' | 'headers' | 'body'>;
}) {
  const capability = useCapability('pins');
  if (capability !== true) return <Unavailable reason={capability} />;
  return <PinOffer {...props} />;
}

function PinOffer({
  trigger,
  answer,
}: {
  trigger: string;
  answer: Pick<Pin, 'status' | 'headers' | 'body'>;
}) {
  const runtime = useRuntime();
  const flow = useOpenFlowId();
  const node = usePanelNode();
  const pinned = usePinOf(node, trigger);
  const [said, setSaid] = useState<string>();
  if (!runtime || flow === undefined || node === undefined) return null;
  const same =
    pinned !== undefined &&
    JSON.stringify(pinned) === JSON.stringify({ flow, node, trigger, ...answer });
  const pin = async () => {
    try {
      const kept = await runtime.pinCall({ flow, node, trigger, ...answer });
      setSaid(
        kept.ok ? 'Pinned: processes get this answer instead of sending the call.' : kept.error,
      );
    } catch (e) {
      setSaid(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div className="call-pin__offer">
      <Button
        size="sm"
        icon={<PinIcon size={14} aria-hidden="true" />}
        disabled={same}
        onClick={() => void pin()}
      >
        {same ? 'Pinned' : 'Pin this answer'}
      </Button>
      {said && <p className="call-test__message">{said}</p>}
    </div>
  );
}

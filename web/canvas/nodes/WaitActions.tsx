import { Popover } from 'radix-ui';
import { memo, useState, type ReactNode } from 'react';
import { timersOf } from '../../../runtime/engine/timers.ts';
import { waitsWithTriggers, type WaitView } from '../../../runtime/engine/waits.ts';
import type { Trigger } from '../../../shared/schema.ts';
import { useDesigner } from '../../designer/designerStore.ts';
import { triggerKind } from '../../designer/describeNode.ts';
import { useAct } from '../../inspector/act.ts';
import {
  shownFlow,
  useInspector,
  useInspectorStore,
  type InspectorState,
} from '../../inspector/inspectorState.ts';
import { useAdvanceClock } from '../../inspector/useAdvanceClock.ts';
import { deliverEventTo, sendCallNowTo } from '../../inspector/waitActions.ts';
import { EventForm, HumanForm } from '../../inspector/WaitForms.tsx';
import { useRuntimeState } from '../../state/runtimeState.ts';
import { Button } from '../../ui/Button.tsx';
import { AlarmClock, Check, Mail, Send } from '../../ui/icons.tsx';

/**
 * The inspected process's id when it waits at this node on the canvas shown now (not as of a
 * journal entry picked), else ''. A string, so that a wake that leaves the process waiting here
 * renders nothing.
 */
function waitingHere(s: InspectorState, flowOnCanvas: string, nodeId: string): string {
  const { inspection } = s;
  if (!inspection || s.asOf !== undefined || inspection.record.status !== 'waiting') return '';
  if (shownFlow(s) !== flowOnCanvas) return '';
  return inspection.overlay.get(nodeId)?.state === 'waiting' ? inspection.record.id : '';
}

/** The process's wait at this node of the scope shown, read when a trigger is acted on. */
function waitAt(s: InspectorState, nodeId: string): WaitView | undefined {
  const inspection = s.inspection;
  if (!inspection) return undefined;
  const prefix = inspection.levels
    .at(-1)!
    .path.map((p) => `${p}/`)
    .join('');
  const { snapshot } = inspection.record;
  return waitsWithTriggers(snapshot, (f) => inspection.flows.get(f)).find(
    (w) => w.path === prefix + nodeId,
  );
}

/**
 * A waiting continue-after's triggers, offered in place (as Stately Studio offers events on the
 * canvas): deliver its event (a payload editor when the trigger writes it `into` the context),
 * answer its form, fire its timer now on the virtual clock, send its call's next attempt now.
 * Each does what the run view's waits panel does, through the same actions (waitActions.ts,
 * WaitForms.tsx, useAdvanceClock.ts). Buttons in the node, after its triggers: Tab reaches them
 * from the node.
 */
export const WaitActions = memo(function WaitActions({
  nodeId,
  triggers,
}: {
  nodeId: string;
  triggers: readonly Trigger[];
}) {
  const flowId = useDesigner((s) => s.meta.id);
  const processId = useInspector((s) => waitingHere(s, flowId, nodeId));
  if (processId === '' || triggers.length === 0) return null;
  return (
    <div
      role="group"
      aria-label={`Act on ${nodeId} now`}
      className="wf-wait-actions nodrag nopan nowheel"
    >
      {triggers.map((t, i) => (
        <TriggerAction key={`${i}:${t.id}`} processId={processId} nodeId={nodeId} trigger={t} />
      ))}
    </div>
  );
});

function TriggerAction({
  processId,
  nodeId,
  trigger,
}: {
  processId: string;
  nodeId: string;
  trigger: Trigger;
}) {
  const kind = triggerKind(trigger);
  if (kind === 'event') {
    const event = trigger.event ?? '';
    if (trigger.into === undefined || trigger.into === '')
      return <DeliverNow processId={processId} event={event} triggerId={trigger.id} />;
    return (
      <InPlace
        label={`Deliver ${event}…`}
        name={`Deliver event ${event} (${trigger.id}), with a payload`}
        icon={<Mail size={12} aria-hidden="true" />}
      >
        {(close) => (
          <EventForm processId={processId} suggestions={[event]} fixed onDelivered={close} />
        )}
      </InPlace>
    );
  }
  if (kind === 'human')
    return (
      <InPlace
        label="Answer…"
        name={`Answer ${trigger.id}: ${trigger.human?.prompt || 'its form'}`}
        icon={<Check size={12} aria-hidden="true" />}
      >
        {(close) => (
          <HumanFormAt processId={processId} nodeId={nodeId} trigger={trigger} onDone={close} />
        )}
      </InPlace>
    );
  if (kind === 'timer') return <FireNow nodeId={nodeId} trigger={trigger} />;
  return <SendNow processId={processId} nodeId={nodeId} trigger={trigger} />;
}

function DeliverNow({
  processId,
  event,
  triggerId,
}: {
  processId: string;
  event: string;
  triggerId: string;
}) {
  const act = useAct();
  return (
    <Button
      size="sm"
      icon={<Mail size={12} aria-hidden="true" />}
      aria-label={`Deliver event ${event} (${triggerId})`}
      tooltip={`Deliver the event ${event} to this process now, with an empty payload`}
      onClick={() => void act(deliverEventTo(processId, event, {}))}
    >
      Deliver {event}
    </Button>
  );
}

function FireNow({ nodeId, trigger }: { nodeId: string; trigger: Trigger }) {
  const virtual = useRuntimeState((s) => s.clock.mode === 'virtual');
  const advancing = useInspector((s) => s.advancing !== undefined);
  const inspector = useInspectorStore();
  const advance = useAdvanceClock();
  if (!virtual)
    return (
      <p className="wf-wait-actions__reason">
        Timer {trigger.id}: fire it now on the virtual clock
      </p>
    );
  const fire = () =>
    void advance(async () => {
      const s = inspector.getState();
      const wait = waitAt(s, nodeId);
      const record = s.inspection?.record;
      if (!wait || !record) return null;
      const timer = timersOf(record.snapshot, (f) => s.inspection!.flows.get(f)).find(
        (t) => t.seq === wait.seq && t.trigger === trigger.id,
      );
      return timer?.due ?? null;
    });
  return (
    <Button
      size="sm"
      icon={<AlarmClock size={12} aria-hidden="true" />}
      aria-label={`Fire now: timer ${trigger.id}`}
      tooltip="Move the virtual clock to when this timer falls due, firing it (and any timer due before it)"
      disabled={advancing}
      onClick={fire}
    >
      Fire now
    </Button>
  );
}

function SendNow({
  processId,
  nodeId,
  trigger,
}: {
  processId: string;
  nodeId: string;
  trigger: Trigger;
}) {
  const act = useAct();
  const inspector = useInspectorStore();
  const send = () => {
    const wait = waitAt(inspector.getState(), nodeId);
    if (wait) void act(sendCallNowTo(processId, { seq: wait.seq, node: wait.path }));
  };
  return (
    <Button
      size="sm"
      icon={<Send size={12} aria-hidden="true" />}
      aria-label={`Send now: call ${trigger.id}`}
      tooltip="Send the call's next attempt now, with the same Idempotency-Key"
      onClick={send}
    >
      Send now
    </Button>
  );
}

/** The form of a human trigger, bound to the wait the process stands at here when it opened. */
function HumanFormAt({
  processId,
  nodeId,
  trigger,
  onDone,
}: {
  processId: string;
  nodeId: string;
  trigger: Trigger;
  onDone: () => void;
}) {
  const inspector = useInspectorStore();
  const [wait] = useState(() => waitAt(inspector.getState(), nodeId));
  if (!wait) return <p role="status">The process no longer waits here.</p>;
  return (
    <HumanForm
      processId={processId}
      path={wait.path}
      seq={wait.seq}
      trigger={trigger}
      onAnswered={onDone}
    />
  );
}

/**
 * A button on the node that opens a form beside it (Radix's popover: focus moves into it,
 * Escape closes it and focus comes back to the button).
 */
function InPlace({
  label,
  name,
  icon,
  children,
}: {
  label: string;
  name: string;
  icon: ReactNode;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <Button size="sm" icon={icon} aria-label={name} aria-haspopup="dialog">
          {label}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="wf-popover inspector-forms"
          side="bottom"
          align="start"
          sideOffset={6}
          collisionPadding={8}
          aria-label={name}
        >
          {children(() => setOpen(false))}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

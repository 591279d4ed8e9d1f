/**
 * Stands where a feature would be when the runtime cannot offer it, and says why in one line
 * (docs/decisions.md, "Capabilities say why"): a control that is only missing would leave the
 * designer looking for it.
 */
export function Unavailable({ reason }: { reason: string }) {
  return (
    <p role="note" className="wf-unavailable">
      {reason}
    </p>
  );
}

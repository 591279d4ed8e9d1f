import { memo } from 'react';
import { Pin } from '../../ui/icons.tsx';

/**
 * Beside a call trigger whose call is pinned (docs/format.md#pinned-answers): the process gets
 * the pin's answer, and nothing is sent. An image with a name, so a screen reader says it.
 */
export const PinMarker = memo(function PinMarker() {
  return (
    <span
      className="wf-trigger__pin"
      role="img"
      aria-label="Answered by a pin"
      title="Answered by a pin"
    >
      <Pin size={12} aria-hidden="true" />
    </span>
  );
});

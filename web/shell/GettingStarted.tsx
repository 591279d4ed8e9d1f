import { useState } from 'react';
import { IconButton } from '../ui/Button.tsx';
import { X } from '../ui/icons.tsx';
import { welcome } from '../state/session.ts';

/**
 * Three steps for a first visit, at the top of the right panel until dismissed (remembered).
 * It names what is on screen: the example open, Start, the run view and the clock.
 */
export function GettingStarted() {
  const [shown, setShown] = useState(() => !welcome.dismissed());
  if (!shown) return null;
  const dismiss = () => {
    welcome.dismiss();
    setShown(false);
  };
  return (
    <section className="getting-started" aria-labelledby="getting-started-heading">
      <header>
        <h2 id="getting-started-heading">Getting started</h2>
        <IconButton
          size="sm"
          label="Dismiss getting started"
          tooltip="Dismiss: it will not show again"
          icon={<X size={14} />}
          onClick={dismiss}
        />
      </header>
      <ol>
        <li>
          This is <strong>Nightly refresh</strong>: it re-reads prices, checks them in two branches,
          then sleeps a day (or until prices change) and goes round again.
        </li>
        <li>
          Press <strong>Start</strong> at the top: the process appears below, and its position is
          drawn on the canvas.
        </li>
        <li>
          Switch the clock to <strong>virtual time</strong> and advance it a day: the process wakes,
          makes a pass, and sleeps again.
        </li>
      </ol>
    </section>
  );
}

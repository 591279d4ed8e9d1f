import { Tooltip as RadixTooltip } from 'radix-ui';
import type { ReactElement, ReactNode } from 'react';

/** Wraps the app once: tooltips open after a short delay, and at once when moving between them. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <RadixTooltip.Provider delayDuration={400} skipDelayDuration={200} disableHoverableContent>
      {children}
    </RadixTooltip.Provider>
  );
}

export interface TooltipProps {
  /** What the control does, in a sentence; shown on hover and on keyboard focus. */
  content: ReactNode;
  /** A key or chord that does the same, shown beside the text. */
  shortcut?: string;
  side?: 'top' | 'bottom' | 'left' | 'right';
  /** One element that takes a ref and props (a button). */
  children: ReactElement;
}

/**
 * A tooltip on any control. The control keeps its own accessible name; the tooltip's text is
 * its description while shown (Radix sets aria-describedby), so it says what the control does.
 */
export function Tooltip({ content, shortcut, side = 'bottom', children }: TooltipProps) {
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content
          className="wf-tooltip"
          side={side}
          sideOffset={6}
          collisionPadding={8}
        >
          {content}
          {shortcut && <kbd className="wf-kbd">{shortcut}</kbd>}
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}

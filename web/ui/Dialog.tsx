import { Dialog as RadixDialog } from 'radix-ui';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './Button.tsx';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog's heading and accessible name. */
  title: string;
  /** A sentence under the title, read with it. */
  description?: ReactNode;
  children: ReactNode;
  /** The buttons at the bottom. */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
}

/** A modal dialog: focus kept inside, Escape and the close button close it, focus returns. */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'md',
}: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="wf-dialog__overlay" />
        <RadixDialog.Content
          className={`wf-dialog wf-dialog--${size}`}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <header className="wf-dialog__header">
            <RadixDialog.Title className="wf-dialog__title">{title}</RadixDialog.Title>
            {/* No tooltip: the dialog focuses this first, and a tooltip open on focus would
                take the first Escape, which must close the dialog. */}
            <RadixDialog.Close asChild>
              <Button
                variant="ghost"
                className="wf-btn--icon"
                aria-label="Close"
                title="Close (Escape)"
                icon={<X size={16} aria-hidden="true" />}
              />
            </RadixDialog.Close>
          </header>
          {description && (
            <RadixDialog.Description className="wf-dialog__description">
              {description}
            </RadixDialog.Description>
          )}
          <div className="wf-dialog__body">{children}</div>
          {footer && <footer className="wf-dialog__footer">{footer}</footer>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

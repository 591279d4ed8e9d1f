import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Tooltip } from './Tooltip.tsx';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  /** An icon before the text (an element from icons.tsx); decorative. */
  icon?: ReactNode;
  /** What the button does, shown as a tooltip. */
  tooltip?: ReactNode;
  shortcut?: string;
  ref?: Ref<HTMLButtonElement>;
}

export const buttonClass = (variant: ButtonVariant = 'secondary', size: 'sm' | 'md' = 'md') =>
  `wf-btn wf-btn--${variant} wf-btn--${size}`;

/** The app's button: a native button, styled by variant, with an optional icon and tooltip. */
export function Button({
  variant = 'secondary',
  size = 'md',
  icon,
  tooltip,
  shortcut,
  className,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  const button = (
    <button
      type={type}
      className={`${buttonClass(variant, size)}${className ? ` ${className}` : ''}`}
      aria-keyshortcuts={rest['aria-keyshortcuts'] ?? shortcutAria(shortcut)}
      {...rest}
    >
      {icon}
      {children !== undefined && <span className="wf-btn__label">{children}</span>}
    </button>
  );
  return tooltip ? (
    <Tooltip content={tooltip} shortcut={shortcut}>
      {button}
    </Tooltip>
  ) : (
    button
  );
}

/** "Ctrl+Shift+Z" as aria-keyshortcuts says it: "Control+Shift+Z". */
export function shortcutAria(shortcut: string | undefined): string | undefined {
  return shortcut?.replace(/\bCtrl\b/g, 'Control').replace(/\bEsc\b/g, 'Escape');
}

export interface IconButtonProps extends Omit<ButtonProps, 'children' | 'tooltip'> {
  /** The accessible name, also the tooltip unless one is given. */
  label: string;
  tooltip?: ReactNode;
  icon: ReactNode;
}

/** A button drawn as an icon alone: its name is `label`, and hovering or focusing shows it. */
export function IconButton({
  label,
  tooltip,
  icon,
  variant = 'ghost',
  className,
  ...rest
}: IconButtonProps) {
  return (
    <Button
      {...rest}
      variant={variant}
      aria-label={label}
      tooltip={tooltip ?? label}
      icon={icon}
      className={`wf-btn--icon${className ? ` ${className}` : ''}`}
    />
  );
}

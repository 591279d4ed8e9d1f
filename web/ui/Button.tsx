import { isValidElement, memo, type ButtonHTMLAttributes, type ReactNode, type Ref } from 'react';
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

/**
 * The app's button: a native button, styled by variant, with an optional icon and tooltip. It
 * renders only when what it draws or does changed (sameButtonProps): a panel that renders for
 * its data does not render its buttons and their tooltips with it.
 */
export const Button = memo(function Button({
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
}, sameButtonProps);

/**
 * Props alike as a button draws them: each the same value, but an icon element written anew in
 * the parent's render (`icon={<Play size={14} />}`) is alike when it has the same component and
 * props. Handlers are compared as they are: a parent passes stable ones (useHandler.ts).
 */
export function sameButtonProps(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => (k === 'icon' ? sameElement(x[k], y[k]) : Object.is(x[k], y[k])));
}

function sameElement(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (!isValidElement(a) || !isValidElement(b) || a.type !== b.type || a.key !== b.key)
    return false;
  const p = a.props as Record<string, unknown>;
  const q = b.props as Record<string, unknown>;
  const keys = Object.keys(p);
  return keys.length === Object.keys(q).length && keys.every((k) => Object.is(p[k], q[k]));
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
export const IconButton = memo(function IconButton({
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
}, sameButtonProps);

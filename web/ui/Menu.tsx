import { DropdownMenu } from 'radix-ui';
import type { ReactElement, ReactNode } from 'react';

export interface MenuItem {
  label: string;
  icon?: ReactNode;
  onSelect: () => void;
  disabled?: boolean;
  /** Drawn in the error colour: deleting, cancelling. */
  danger?: boolean;
  shortcut?: string;
}

export interface MenuProps {
  /** The button that opens the menu (an IconButton or Button). */
  trigger: ReactElement;
  /** What the menu is for; its accessible name is its trigger's, as Radix labels it. */
  label: string;
  /** Items, with `'separator'` between groups. */
  items: (MenuItem | 'separator')[];
  align?: 'start' | 'end';
}

/** A menu of actions opened from a button (WAI-ARIA menu button; arrows, typeahead, Escape). */
export function Menu({ trigger, label, items, align = 'start' }: MenuProps) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="wf-menu" data-menu={label} align={align} sideOffset={4}>
          {items.map((item, i) =>
            item === 'separator' ? (
              <DropdownMenu.Separator key={`sep-${i}`} className="wf-menu__separator" />
            ) : (
              <DropdownMenu.Item
                key={item.label}
                className={`wf-menu__item${item.danger ? ' wf-menu__item--danger' : ''}`}
                disabled={item.disabled}
                onSelect={item.onSelect}
              >
                <span className="wf-menu__icon" aria-hidden="true">
                  {item.icon}
                </span>
                {item.label}
                {item.shortcut && <kbd className="wf-kbd wf-menu__shortcut">{item.shortcut}</kbd>}
              </DropdownMenu.Item>
            ),
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

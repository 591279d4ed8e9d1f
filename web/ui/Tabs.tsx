import { Tabs as RadixTabs } from 'radix-ui';
import type { ReactNode } from 'react';

export interface Tab {
  value: string;
  label: ReactNode;
  content: ReactNode;
}

export interface TabsProps {
  /** The tab list's accessible name. */
  label: string;
  tabs: Tab[];
  value: string;
  onValueChange: (value: string) => void;
  className?: string;
  /** Extra controls at the end of the tab bar. */
  end?: ReactNode;
}

/** Tabs (WAI-ARIA tabs pattern: arrow keys between tabs, one tab stop, panels labelled). */
export function Tabs({ label, tabs, value, onValueChange, className, end }: TabsProps) {
  return (
    <RadixTabs.Root
      className={`wf-tabs${className ? ` ${className}` : ''}`}
      value={value}
      onValueChange={onValueChange}
    >
      <div className="wf-tabs__bar">
        <RadixTabs.List className="wf-tabs__list" aria-label={label}>
          {tabs.map((t) => (
            <RadixTabs.Trigger key={t.value} value={t.value} className="wf-tabs__tab">
              {t.label}
            </RadixTabs.Trigger>
          ))}
        </RadixTabs.List>
        {end}
      </div>
      {tabs.map((t) => (
        <RadixTabs.Content key={t.value} value={t.value} className="wf-tabs__panel">
          {t.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}

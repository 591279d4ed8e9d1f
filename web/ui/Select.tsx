import type { Ref, SelectHTMLAttributes } from 'react';
import { ChevronDown } from 'lucide-react';

// One element for every select and render: the chevron never renders with the options.
const CHEVRON = <ChevronDown aria-hidden="true" size={14} className="wf-select__chevron" />;

/**
 * A styled native select. Native rather than a custom listbox: the platform's keyboard,
 * type-ahead and form behaviour come with it, and screen readers announce it as they expect.
 */
export function Select({
  className,
  ref,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> }) {
  return (
    <span className={`wf-select${className ? ` ${className}` : ''}`}>
      <select ref={ref} {...rest} />
      {CHEVRON}
    </span>
  );
}

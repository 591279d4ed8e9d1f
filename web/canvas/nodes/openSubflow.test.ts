import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSubflow, setOpenSubflowHandler } from './openSubflow.ts';

describe('openSubflow', () => {
  afterEach(() => {
    setOpenSubflowHandler(undefined);
  });

  it('does nothing, and says so, when no handler is registered', () => {
    expect(openSubflow('enrich')).toBe(false);
  });

  it('calls the registered handler with the flow id and the sub-flow node it is opened from', () => {
    const open = vi.fn();
    setOpenSubflowHandler(open);
    expect(openSubflow('enrich', 'b')).toBe(true);
    expect(open).toHaveBeenCalledWith('enrich', 'b');
  });

  it('removes only its own handler on cleanup', () => {
    const first = vi.fn();
    const second = vi.fn();
    const removeFirst = setOpenSubflowHandler(first);
    const removeSecond = setOpenSubflowHandler(second);
    removeFirst(); // a stale cleanup, e.g. of a remount, must not drop the newer handler
    openSubflow('a');
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith('a', undefined);
    removeSecond();
    expect(openSubflow('a')).toBe(false);
  });
});

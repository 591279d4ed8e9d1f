import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSubflow, setOpenSubflowHandler } from './openSubflow.ts';

describe('openSubflow', () => {
  afterEach(() => {
    setOpenSubflowHandler(undefined);
  });

  it('does nothing, and says so, when no handler is registered', () => {
    expect(openSubflow('enrich')).toBe(false);
  });

  it('calls the registered handler with the flow id', () => {
    const open = vi.fn();
    setOpenSubflowHandler(open);
    expect(openSubflow('enrich')).toBe(true);
    expect(open).toHaveBeenCalledWith('enrich');
  });

  it('removes only its own handler on cleanup', () => {
    const first = vi.fn();
    const second = vi.fn();
    const removeFirst = setOpenSubflowHandler(first);
    const removeSecond = setOpenSubflowHandler(second);
    removeFirst(); // a stale cleanup, e.g. of a remount, must not drop the newer handler
    openSubflow('a');
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith('a');
    removeSecond();
    expect(openSubflow('a')).toBe(false);
  });
});

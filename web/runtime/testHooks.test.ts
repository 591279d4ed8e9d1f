import { afterEach, describe, expect, it, vi } from 'vitest';
import { evaluate } from '../../runtime/expr/evaluate.ts';
import { installTestHooks } from './installTestHooks.ts';
import { testHooksOf } from './testHooks.ts';

afterEach(() => vi.unstubAllEnvs());

describe('test hooks: honoured by the dev server only (docs/decisions.md, "Limits are settings")', () => {
  it('reads what the page address asks for, and nothing else', () => {
    expect(testHooksOf('?test=block')).toEqual({ block: true });
    expect(testHooksOf('?flow=x&test=block')).toEqual({ block: true });
    expect(testHooksOf('')).toBeUndefined();
    expect(testHooksOf('?test=other')).toBeUndefined();
  });

  it('in a production build, the address asks for nothing and $block is never bound', async () => {
    vi.stubEnv('DEV', false);
    expect(testHooksOf('?test=block')).toBeUndefined();
    installTestHooks({ block: true });
    expect(await evaluate({}, '$block(1)', {})).toMatchObject({ ok: false });
  });

  it('binds $block(ms), one call that returns only after ms of real time', async () => {
    // A clock that moves 1 ms each time it is read: the call returns once it has read 30 ms on.
    let time = 1_000;
    installTestHooks({ block: true }, () => time++);
    expect(await evaluate({}, '$block(30)', {})).toEqual({ ok: true, value: 30 });
    expect(time).toBeGreaterThanOrEqual(1_030);
  });
});

import type * as restate from '@restatedev/restate-sdk';
import { describe, expect, it } from 'vitest';
import type { ContextChange } from '../supervisor/records.ts';
import { adoptContext, commitContext } from './contextObject.ts';

/** A context object's state, as the handler sees it through `get` and `set`. */
function fakeState(initial: Record<string, unknown>) {
  const state = new Map(Object.entries(initial));
  const ctx = {
    get: async (name: string) => (state.has(name) ? state.get(name) : null),
    set: (name: string, value: unknown) => void state.set(name, value),
  } as unknown as Pick<restate.ObjectContext, 'get' | 'set'>;
  return { ctx, state };
}

const change = (version: number): ContextChange => ({
  contextId: 'c',
  version,
  process: 'p',
  node: 'tick',
  writes: [{ path: 'count', value: version }] as never,
  at: version,
});

describe('the context object on Restate: a commit moves the version as the store contract says', () => {
  it('rule: a commit with one change per node that wrote moves the version by each and keeps each', async () => {
    const { ctx, state } = fakeState({ version: 3, value: {} });
    const ok = await commitContext(ctx, {
      expectedVersion: 3,
      write: { value: { count: 5 }, changes: [change(4), change(5)] },
    });
    expect(ok).toBe(true);
    expect(state.get('version')).toBe(5);
    expect(state.get('change:4')).toEqual(change(4));
    expect(state.get('change:5')).toEqual(change(5));
  });

  it('rule: a summed-up commit moves the version by `versions`, each change kept at its own version', async () => {
    // Ten nodes wrote; the retention rule kept the last two changes (StepCommit's `versions`).
    const { ctx, state } = fakeState({ version: 0, value: {} });
    const ok = await commitContext(ctx, {
      expectedVersion: 0,
      write: { value: { count: 10 }, changes: [change(9), change(10)], versions: 10 },
    });
    expect(ok).toBe(true);
    expect(state.get('version')).toBe(10);
    expect([...state.keys()].filter((k) => k.startsWith('change:')).sort()).toEqual([
      'change:10',
      'change:9',
    ]);
  });

  it('rule: a commit made on an older version writes nothing, and answers the context as it is', async () => {
    const { ctx, state } = fakeState({ version: 4, value: { count: 4 } });
    const answer = await commitContext(ctx, {
      expectedVersion: 3,
      write: { value: { count: 9 }, changes: [change(4)] },
    });
    // The step runs again on what it is answered, without a call to read it.
    expect(answer).toEqual({ now: { version: 4, value: { count: 4 } } });
    expect(state.get('version')).toBe(4);
    expect(state.get('value')).toEqual({ count: 4 });
  });

  it('rule: a context moved from the process that kept it keeps its version and every change, once', async () => {
    const { ctx, state } = fakeState({});
    await adoptContext(ctx, { version: 2, value: { count: 2 }, changes: [change(1), change(2)] });
    expect(Object.fromEntries(state)).toEqual({
      value: { count: 2 },
      version: 2,
      'change:1': change(1),
      'change:2': change(2),
    });
    // Moved again (a retry): what is here stays.
    await adoptContext(ctx, { version: 0, value: {}, changes: [] });
    expect(state.get('version')).toBe(2);
  });
});

import type * as restate from '@restatedev/restate-sdk';
import { describe, expect, it } from 'vitest';
import { fakeStateAccess } from './fixtures/fakeState.ts';
import { ObjectState } from './objectState.ts';
import { ProcessMetaState } from './processMeta.ts';

/** A process object's state, each `get`, `set` and `clear` counted as the journal entry it is. */
function processState(initial: Record<string, unknown>) {
  const state = new Map(Object.entries(initial).map(([k, v]) => [k, JSON.stringify(v)]));
  const access = fakeStateAccess(state);
  const entries: string[] = [];
  const ctx = {
    get: (name: string, serde?: restate.Serde<unknown>) => {
      entries.push(`get ${name}`);
      return access.get(name, serde);
    },
    set: (name: string, value: unknown, serde?: restate.Serde<unknown>) => {
      entries.push(`set ${name}`);
      access.set(name, value, serde);
    },
    clear: (name: string) => {
      entries.push(`clear ${name}`);
      access.clear(name);
    },
  } as unknown as restate.ObjectContext;
  return { state, entries, meta: () => new ProcessMetaState(new ObjectState(ctx)) };
}

describe('a process keeps its small values in one state key (processMeta.ts)', () => {
  it('rule: an invocation reads the meta once and writes it once, whatever it changes', async () => {
    const process = processState({ record: {}, meta: { created: 3, journalLength: 10 } });
    const meta = process.meta();
    await meta.set('journalLength', 12);
    await meta.set('tick', { at: 5, invocation: 'inv_1' });
    await meta.set('events', ['paid']);
    expect(await meta.get('created')).toBe(3);
    meta.flush();
    expect(process.entries).toEqual(['get meta', 'set meta']);
    expect(JSON.parse(process.state.get('meta')!)).toEqual({
      created: 3,
      journalLength: 12,
      tick: { at: 5, invocation: 'inv_1' },
      events: ['paid'],
    });
  });

  it('rule: a meta that did not change is not written', async () => {
    const process = processState({ record: {}, meta: { created: 3 } });
    const meta = process.meta();
    await meta.set('created', 3);
    meta.flush();
    expect(process.entries).toEqual(['get meta']);
  });

  it('rule: a process stored before the meta is read from its own keys once, and they are cleared as the meta is written', async () => {
    const process = processState({
      record: {},
      created: 4,
      journalLength: 7,
      tickAt: 9,
      tickInvocation: 'inv_9',
      events: ['a'],
    });
    const meta = process.meta();
    expect(await meta.read()).toMatchObject({
      created: 4,
      journalLength: 7,
      tick: { at: 9, invocation: 'inv_9' },
      events: ['a'],
      // Its call progress, if any, is read when asked.
      calls: true,
    });
    meta.flush();
    expect([...process.state.keys()].sort()).toEqual(['meta', 'record']);
    // The next invocation reads the meta alone.
    const next = processState(
      Object.fromEntries([...process.state].map(([k, v]) => [k, JSON.parse(v)])),
    );
    await next.meta().read();
    expect(next.entries).toEqual(['get meta']);
  });
});

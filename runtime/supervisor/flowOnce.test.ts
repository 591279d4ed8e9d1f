import { describe, expect, it, vi } from 'vitest';
import { chain, end, flow, minimalFlow, start, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { validateFlow } from '../../shared/validateFlow.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { FlowCache } from './flowCache.ts';
import { FlowReader } from './flowReader.ts';
import { Supervisor } from './supervisor.ts';
import { assertRunnable, SupervisorError } from './supervisorError.ts';

// Counted, not changed: every check still runs the real validateFlow.
vi.mock('../../shared/validateFlow.ts', async (original) => {
  const real = await original<typeof import('../../shared/validateFlow.ts')>();
  return { ...real, validateFlow: vi.fn(real.validateFlow) };
});

const T0 = Date.UTC(2026, 0, 1);

/**
 * A flow whose `nodes` counts how often it is read: a walk over the flow (a check, its text, a
 * copy) reads it; a flow looked up in a cache by its object does not.
 */
function counted(f: Flow): { flow: Flow; reads: () => number } {
  let reads = 0;
  // Keys in the flow's own order, so that its text is the flow's.
  const out = {} as Flow;
  for (const [key, value] of Object.entries(f)) {
    Object.defineProperty(out, key, {
      enumerable: true,
      get: () => (key === 'nodes' && reads++, value as unknown),
    });
  }
  return { flow: out, reads: () => reads };
}

describe('a flow is checked, written out and walked once per object (a flow is never changed in place)', () => {
  it('rule: a flow found runnable is not checked again; one with problems is refused every time', () => {
    const check = vi.mocked(validateFlow);
    check.mockClear();
    const good = minimalFlow('good');
    assertRunnable(new Map([['good', good]]));
    assertRunnable(new Map([['good', good]]));
    expect(check).toHaveBeenCalledTimes(1);
    // The same content in another object is another flow: checked.
    assertRunnable(new Map([['good', structuredClone(good)]]));
    expect(check).toHaveBeenCalledTimes(2);

    const bad: Flow = { ...minimalFlow('bad'), edges: [{ id: 'e', from: 'start', to: 'nowhere' }] };
    for (let i = 0; i < 2; i++)
      expect(() => assertRunnable(new Map([['bad', bad]]))).toThrow(SupervisorError);
    expect(check).toHaveBeenCalledTimes(4);
  });

  it('rule: starts on a store that reads a new object each time check the flow once per content', async () => {
    const check = vi.mocked(validateFlow);
    const store = await testStore('flow-once');
    await store.putFlow(minimalFlow('once'));
    const supervisor = new Supervisor(store, new VirtualClock(T0));
    check.mockClear();
    await supervisor.start('once', { id: 'a' });
    await supervisor.start('once', { id: 'b' });
    expect(check).toHaveBeenCalledTimes(1);
    // A saved edit is other content: checked before the next start.
    await store.putFlow({ ...minimalFlow('once'), name: 'renamed' } as Flow);
    await supervisor.start('once', { id: 'c' });
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('rule: a start stores the version its flow object stands for once, and a saved edit as a version of its own', async () => {
    const store = await testStore('versions-once');
    const stored: string[] = [];
    const put = store.putFlowVersion.bind(store);
    store.putFlowVersion = (f, signature) => (stored.push(signature), put(f, signature));
    await store.putFlow(minimalFlow('once'));
    const supervisor = new Supervisor(store, new VirtualClock(T0));
    await supervisor.start('once', { id: 'a' });
    await supervisor.start('once', { id: 'b' });
    expect(stored).toHaveLength(1);
    const edited: Flow = {
      ...minimalFlow('once'),
      nodes: [...minimalFlow('once').nodes, { id: 'extra', kind: 'end' }],
      edges: [...minimalFlow('once').edges, { id: 'more', from: 'start', to: 'extra' }],
    };
    await store.putFlow(edited);
    const c = await supervisor.start('once', { id: 'c' });
    expect(stored).toHaveLength(2);
    expect(stored[1]).toBe(c.versions.once);
    expect(await store.getFlowVersion('once', c.versions.once!)).toEqual(edited);
  });

  it('rule: a start reads its flow from the store once, and drives on what it read', async () => {
    const store = await testStore('read-once');
    let reads = 0;
    const getFlow = store.getFlow.bind(store);
    store.getFlow = (id) => (reads++, getFlow(id));
    await store.putFlow(minimalFlow('once'));
    const supervisor = new Supervisor(store, new VirtualClock(T0));
    const done = await supervisor.start('once', { id: 'a' });
    expect(done.status).toBe('done');
    expect(reads).toBe(1);
  });

  it('rule: a new flow is analysed in parts with a pause between them (loops, check, signature, model), once per object', async () => {
    const reader = new FlowReader(new MemoryStore());
    const check = vi.mocked(validateFlow);
    const seen: string[] = [];
    const good = minimalFlow('good');
    // What each pause finds done: the check comes after the first pause, not before.
    const pause = () => void seen.push(`pause after ${check.mock.calls.length} checks`);
    check.mockClear();
    await reader.analyse(new Map([['good', good]]), pause);
    expect(seen).toEqual([
      'pause after 0 checks',
      'pause after 0 checks',
      'pause after 1 checks',
      'pause after 1 checks',
      'pause after 1 checks',
    ]);
    seen.length = 0;
    await reader.analyse(new Map([['good', good]]), pause);
    expect(seen).toEqual([]);
    // A flow with problems has no signature or model made for it.
    const bad: Flow = { ...minimalFlow('bad'), edges: [{ id: 'e', from: 'start', to: 'nowhere' }] };
    await reader.analyse(new Map([['bad', bad]]), pause);
    expect(seen).toHaveLength(3);
  });

  it('rule: the first object seen for a flow id is kept without writing out its text', () => {
    const cache = new FlowCache();
    const first = counted(minimalFlow('f'));
    expect(cache.canonical(first.flow)).toBe(first.flow);
    expect(cache.canonical(first.flow)).toBe(first.flow);
    expect(first.reads()).toBe(0);
    // Another object of that id is compared by text, the kept one's written out then, once.
    expect(cache.canonical(structuredClone(minimalFlow('f')))).toBe(first.flow);
    expect(cache.canonical(structuredClone(minimalFlow('f')))).toBe(first.flow);
    expect(first.reads()).toBe(1);
  });

  it('rule: the memory store walks a plain flow once to store it, and keeps storing what JSON cannot hold as text', async () => {
    const store = new MemoryStore();
    const plain = counted(
      flow({
        id: 'p',
        nodes: [start(), work('w', { n: '1' }), end()],
        edges: chain('start', 'w', 'end'),
      }),
    );
    await store.putFlow(plain.flow);
    await store.putFlowVersion(plain.flow, 'sig');
    await store.putFlowVersion(plain.flow, 'sig');
    expect(plain.reads()).toBe(1);
    expect(await store.getFlow('p')).toBe(plain.flow);

    const odd = { ...minimalFlow('odd'), extra: Number.NaN } as Flow;
    await store.putFlow(odd);
    await store.putFlowVersion(odd, 'sig');
    expect(((await store.getFlow('odd')) as unknown as { extra: unknown }).extra).toBe('NaN');
    expect(
      ((await store.getFlowVersion('odd', 'sig')) as unknown as { extra: unknown }).extra,
    ).toBe('NaN');
  });
});

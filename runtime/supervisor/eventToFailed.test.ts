import { describe, expect, it } from 'vitest';
import type { Flow } from '../../shared/schema.ts';
import { waitsWithTriggers } from '../engine/step.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { pendingWakes } from './pendingWakes.ts';
import { Supervisor } from './supervisor.ts';

/**
 * The counterexample the controls property test (controls.property.test.ts, seed 1379350794)
 * found, kept as a plain test. w1 leads to w3 by two edges (e3, and e4 since `a` is 7), so w3
 * runs twice; with `o.d` 6 its second run finds `c` = 6 and fails while c2 still waits for
 * "kick". docs/format.md#statuses: only a `waiting` process is asleep at its waits; a `failed` one
 * keeps them in its snapshot (for `retry`) but an event does not reach them, so the rule "an event
 * goes to every wait for that name" (issue 14, rule 4) counts no wait of it.
 */

const T0 = Date.UTC(2026, 0, 1);

const main: Flow = {
  format: 'flow/1',
  id: 'main',
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'w1', kind: 'work', set: { a: '7' } },
    {
      id: 'c2',
      kind: 'continue-after',
      on: [
        { id: 't', timer: 'P1D' },
        { id: 'kick', event: 'kick', into: 'b' },
      ],
    },
    { id: 'w3', kind: 'work', set: { c: 'c = 6 ? $error("boom") : o.d' } },
    { id: 'f4', kind: 'fanout' },
    {
      id: 'w5',
      kind: 'work',
      set: { 'o.d': '(b + o.d) % 1000', c: 'o.d = 1 ? $error("boom") : c' },
    },
    {
      id: 'c6',
      kind: 'continue-after',
      on: [
        { id: 't', timer: 'PT1H' },
        { id: 'kick', event: 'kick', into: 'b' },
      ],
    },
    { id: 'c7', kind: 'continue-after', on: [{ id: 't', timer: 'PT0S' }] },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'w1' },
    { id: 'e2', from: 'w1', to: 'c2' },
    { id: 'e3', from: 'w1', to: 'w3' },
    { id: 'e4', from: 'w1', to: 'w3', when: 'a % 2 = 1' },
    { id: 'e5', from: 'c2', to: 'f4', trigger: 'kick' },
    { id: 'e6', from: 'c2', to: 'w5', trigger: 'kick' },
    { id: 'e7', from: 'f4', to: 'c6' },
    { id: 'e8', from: 'start', to: 'c7' },
  ],
};
/** The same flow with a node nothing leads to: another signature, the same run. */
const changed: Flow = { ...main, nodes: [...main.nodes, { id: 'inert', kind: 'end' }] };

async function startOn(context: Record<string, unknown>) {
  const store = await testStore('event-to-failed');
  const supervisor = new Supervisor(store, new VirtualClock(T0));
  await store.putFlow(main);
  const record = await supervisor.start('main', { id: 'p', context });
  const flows = await supervisor.sleptOn(record);
  const kickWaits = waitsWithTriggers(record.snapshot, (f) => flows.get(f))
    .filter((w) => w.triggers.some((t) => t.event === 'kick'))
    .map((w) => w.node);
  return { store, supervisor, record, kickWaits };
}

describe('rule 4 of issue 14: an event goes to the waits of waiting processes only', () => {
  it('a failed process that still holds a wait for the event takes it at none, on a changed flow', async () => {
    const { store, supervisor, record, kickWaits } = await startOn({ a: 8, b: 0, o: { d: 6 } });
    expect(record.status).toBe('failed');
    expect(record.error).toMatch(/node "w3".*boom/);
    // What the property counted: the failed snapshot still lists c2 as waiting for "kick".
    expect(kickWaits).toEqual(['c2']);

    await store.putFlow(changed);
    expect(await supervisor.deliverEvent('kick', 7)).toBe(0);
    const after = await supervisor.mustGet('p');
    expect(after.status).toBe('failed');
    expect(pendingWakes(after)).toEqual([]);
    const types = (await store.journal('p')).map((e) => e.type);
    expect(types).not.toContain('woke');
    expect(types).not.toContain('flow-changed');
    // So there is nothing for the property's choice, continue, to resolve.
    await expect(supervisor.resolve('p', 'continue')).rejects.toThrow(
      /is failed; only a process whose flow changed can be resolved/,
    );
  });

  it('the same workspace with w3 not failing waits at c2, and the event counts there after continue', async () => {
    const { store, supervisor, record, kickWaits } = await startOn({ a: 8, b: 0, o: { d: 5 } });
    expect(record.status).toBe('waiting');
    expect(kickWaits).toEqual(['c2']);

    await store.putFlow(changed);
    expect(await supervisor.deliverEvent('kick', 7)).toBe(1);
    const stood = await supervisor.mustGet('p');
    expect(stood.status).toBe('flow-changed');
    expect(pendingWakes(stood)).toHaveLength(1);
    const resolved = await supervisor.resolve('p', 'continue');
    // The kick still counts: c2 went on by e5 and e6, so w5 ran and c6 now waits.
    expect(resolved.snapshot.visits).toMatchObject({ c2: 1, w5: 1, f4: 1 });
    expect(resolved.status).toBe('waiting');
  });
});

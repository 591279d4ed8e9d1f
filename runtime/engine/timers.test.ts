import { describe, expect, it } from 'vitest';
import { flow, start, wait } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import type { Snapshot, Wait } from './snapshot.ts';
import { dueTimer, earliestTimer, timersOf } from './timers.ts';

/**
 * docs/format.md#statuses: the timer that fires next is the earliest due; among equal
 * times the older wait, and within a wait the trigger listed first. `earliestTimer` answers it
 * once per snapshot (a wake asks several times); these check that the kept answer is the one a
 * full listing gives, and that it never outlives the flow version it was read from.
 */

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

const snapshotOf = (flowId: string, waits: Wait[]): Snapshot => ({
  format: 'snapshot/1',
  seq: 100,
  visits: {},
  passes: {},
  scope: { flow: flowId, signature: 's', ready: [], waits, joins: [], ran: [], children: [] },
});

const lookup = (f: Flow) => (id: string) => (id === f.id ? f : undefined);

describe('the earliest timer of a snapshot', () => {
  const f = flow({
    id: 'w',
    nodes: [
      start(),
      wait('late', [{ id: 'slow', timer: 'PT3H' }]),
      // Two triggers due at the same moment: the first listed wins.
      wait('tie', [
        { id: 'first', timer: 'PT1H' },
        { id: 'second', timer: 'PT1H' },
      ]),
      wait('early', [{ id: 'soon', timer: 'PT1H' }]),
      wait('event', [{ id: 'ping', event: 'ping' }]),
    ],
  });

  it('is the first of the full listing: earliest time, then the older wait, then the first trigger', () => {
    const s = snapshotOf('w', [
      { node: 'late', gen: [], seq: 1, since: T0 - HOUR },
      { node: 'event', gen: [], seq: 2, since: T0 },
      { node: 'early', gen: [], seq: 7, since: T0 },
      { node: 'tie', gen: [], seq: 4, since: T0 },
    ]);
    const all = timersOf(s, lookup(f));
    expect(earliestTimer(s, lookup(f))).toEqual(all[0]);
    // Asked again of the same snapshot: the same answer.
    expect(earliestTimer(s, lookup(f))).toEqual(all[0]);
    expect(all[0]).toEqual({ seq: 4, path: 'tie', trigger: 'first', due: T0 + HOUR });
    expect(dueTimer(s, lookup(f), T0 + HOUR - 1)).toBeUndefined();
    expect(dueTimer(s, lookup(f), T0 + HOUR)?.trigger).toBe('first');
  });

  it('is timed again against another version of the flow, not answered from the first', () => {
    const s = snapshotOf('w', [{ node: 'early', gen: [], seq: 3, since: T0 }]);
    expect(earliestTimer(s, lookup(f))?.due).toBe(T0 + HOUR);
    const edited = flow({
      id: 'w',
      nodes: [start(), wait('early', [{ id: 'soon', timer: 'PT5M' }])],
    });
    expect(earliestTimer(s, lookup(edited))?.due).toBe(T0 + 5 * 60_000);
    // A workspace without the flow has no timer to give.
    expect(earliestTimer(s, () => undefined)).toBeUndefined();
    expect(earliestTimer(s, lookup(f))?.due).toBe(T0 + HOUR);
  });

  it('looks inside running sub-flows, naming the timer by its path', () => {
    const inner = flow({
      id: 'inner',
      nodes: [start(), wait('nap', [{ id: 'n', timer: 'PT30M' }])],
    });
    const s = snapshotOf('w', [{ node: 'early', gen: [], seq: 1, since: T0 }]);
    s.scope.children.push({
      node: 'call',
      gen: [],
      depth: 1,
      scope: {
        flow: 'inner',
        signature: 'i',
        ready: [],
        waits: [{ node: 'nap', gen: [], seq: 2, since: T0 }],
        joins: [],
        ran: [],
        children: [],
      },
    });
    const flows = (id: string) => (id === 'w' ? f : id === 'inner' ? inner : undefined);
    expect(earliestTimer(s, flows)).toEqual({
      seq: 2,
      path: 'call/nap',
      trigger: 'n',
      due: T0 + 30 * 60_000,
    });
    expect(earliestTimer(s, flows)).toEqual(timersOf(s, flows)[0]);
  });
});

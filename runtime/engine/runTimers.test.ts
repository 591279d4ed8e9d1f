import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chain, edge, end, fanout, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { Flow, Trigger } from '../../shared/schema.ts';
import { fire, runToStop, startSnapshot } from './step.ts';
import { earliestTimer, RunTimers } from './timers.ts';

/**
 * `RunTimers` answers what `earliestTimer` answers (docs/format.md#statuses: the earliest due, the older wait
 * first, the trigger listed first), for the snapshots of one run asked in turn, while timing
 * only the waits each act added. Checked against `earliestTimer` on every stop of random runs.
 */

const T0 = Date.UTC(2026, 0, 1);
const DURATIONS = ['PT0S', 'PT30M', 'PT1H', 'PT1H', 'PT2H'];

/** A split into loops, each tick_i → wait_i (its triggers as given) → tick_i, or an end. */
function loops(triggers: Trigger[][]): Flow {
  const ids = triggers.map((_, i) => i);
  return flow({
    id: 'loops',
    nodes: [
      start(),
      fanout('split'),
      end(),
      ...ids.flatMap((i) => [
        work(`tick${i}`, { [`n${i}`]: `$exists(n${i}) ? n${i} + 1 : 1` }),
        wait(`wait${i}`, triggers[i]),
      ]),
    ],
    edges: [
      ...chain('start', 'split'),
      ...ids.flatMap((i) => [
        edge('split', `tick${i}`),
        edge(`tick${i}`, `wait${i}`),
        // Every third pass of an odd loop ends its branch: waits end as well as begin.
        edge(`wait${i}`, `tick${i}`, i % 2 ? { when: `n${i} % 3 != 0` } : {}),
        ...(i % 2 ? [edge(`wait${i}`, 'end', { when: `n${i} % 3 = 0` })] : []),
      ]),
    ],
  });
}

const triggersArb = fc.array(
  fc
    .array(fc.constantFrom(...DURATIONS), { minLength: 1, maxLength: 2 })
    .map((ds) => ds.map((timer, j): Trigger => ({ id: `t${j}`, timer }))),
  { minLength: 1, maxLength: 6 },
);

describe('rule: the timer due first, asked in turn over one run, is the one a full scan gives', () => {
  it.each([
    ['each fire on a copy', false],
    ["fires after the first on the run's own snapshot, its lists changed in place", true],
  ])(
    'on every stop of random runs of parallel loops, RunTimers.earliest equals earliestTimer (%s)',
    async (_, owned) => {
      await fc.assert(
        fc.asyncProperty(triggersArb, async (triggers) => {
          const f = loops(triggers);
          const env = (now: number) => ({
            flows: (id: string) => (id === f.id ? f : undefined),
            now,
          });
          let stop = await runToStop(startSnapshot(f), {}, env(T0));
          let context = stop.context;
          const timers = new RunTimers(env(T0).flows);
          for (let i = 0; i < 40 && stop.status === 'waiting'; i++) {
            const expected = earliestTimer(stop.snapshot, env(T0).flows);
            expect(timers.earliest(stop.snapshot)).toEqual(expected);
            if (!expected) break;
            // As a supervisor's run does: its first act on the stored snapshot, the others owned.
            const fired = await fire(
              stop.snapshot,
              context,
              env(expected.due),
              expected,
              owned && i > 0,
            );
            const ran = await runToStop(fired.snapshot, context, env(expected.due));
            // The fire's own writes, then the steps'.
            context = ran.context;
            stop = ran;
          }
        }),
        { numRuns: 60 },
      );
    },
  );

  it('a snapshot whose waits are out of order (written by hand) is timed by a full scan', async () => {
    const f = loops([
      [{ id: 't0', timer: 'PT1H' }],
      [{ id: 't0', timer: 'PT2H' }],
      [{ id: 't0', timer: 'PT30M' }],
    ]);
    const flows = (id: string) => (id === f.id ? f : undefined);
    const stop = await runToStop(startSnapshot(f), {}, { flows, now: T0 });
    const reversed = {
      ...stop.snapshot,
      scope: { ...stop.snapshot.scope, waits: [...stop.snapshot.scope.waits].reverse() },
    };
    const expected = earliestTimer(reversed, flows);
    expect(expected?.path).toBe('wait2');
    expect(new RunTimers(flows).earliest(reversed)).toEqual(expected);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Flow } from '../../shared/schema.ts';
import { validateFlow } from '../../shared/validateFlow.ts';
import { waitsWithTriggers } from '../engine/step.ts';
import { dueTimer } from '../engine/timers.ts';
import { contextArb, workspaceArb, type Workspace } from '../engine/fixtures/randomFlow.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { liveWaits, pendingWakes } from './pendingWakes.ts';
import type { ProcessRecord } from './records.ts';
import { Supervisor } from './supervisor.ts';

/**
 * The rules of issue 14 on random valid workspaces (engine/fixtures/randomFlow.ts: loops, joins,
 * nested sub-flows, waits on timers, `PT0S` among them, and on the event "kick"), driven through
 * the supervisor: what the engine's property test (engine/resume.property.test.ts) cannot reach,
 * since stop, resume, flow changes and event delivery are the supervisor's.
 */

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
/** Wakes a run may take before it is reported; generated processes need a few dozen. */
const MAX_ROUNDS = 400;

async function setup(ws: Workspace) {
  const store = await testStore('property');
  const clock = new VirtualClock(T0);
  for (const f of ws) await store.putFlow(f);
  const supervisor = new Supervisor(store, clock);
  return { store, clock, supervisor };
}

/** Nothing a waiting process waits for is overdue: a timer due at or before the clock fired. */
async function expectNothingOverdue(supervisor: Supervisor, clock: VirtualClock, id: string) {
  const record = await supervisor.mustGet(id);
  if (record.status !== 'waiting') return;
  const flows = await supervisor.sleptOn(record);
  expect(dueTimer(record.snapshot, (f) => flows.get(f), clock.now())).toBeUndefined();
}

/** Advances to each next due time until the process ends (or the rounds run out). */
async function runOut(supervisor: Supervisor, id: string): Promise<ProcessRecord> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const record = await supervisor.mustGet(id);
    if (record.status !== 'waiting') return record;
    const next = await supervisor.nextDue();
    if (next === null) return record;
    await supervisor.advanceTo(next);
  }
  throw new Error(`the process did not end within ${MAX_ROUNDS} advances`);
}

const outcome = async (
  supervisor: Supervisor,
  store: Awaited<ReturnType<typeof testStore>>,
  r: ProcessRecord,
) => ({
  status: r.status,
  visits: r.snapshot.visits,
  passes: r.snapshot.passes,
  context: (await store.getContext(r.contextId))?.value,
});

describe('supervisor: rules of issue 14 hold on random workspaces', () => {
  it('generates only valid workspaces', () => {
    fc.assert(
      fc.property(workspaceArb, (ws) => {
        const flows = new Map(ws.map((f) => [f.id, f]));
        for (const f of ws) expect(validateFlow(f, { flows }), f.id).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('after a stop over which several timers fell due, resume leaves nothing overdue, and the process runs to its end', async () => {
    await fc.assert(
      fc.asyncProperty(
        workspaceArb,
        contextArb,
        fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 4 }),
        async (ws, context, stopsForHours) => {
          const { supervisor, clock } = await setup(ws);
          await supervisor.start('main', { id: 'p', context });
          await expectNothingOverdue(supervisor, clock, 'p');
          for (const hours of stopsForHours) {
            const record = await supervisor.mustGet('p');
            if (record.status !== 'waiting') break;
            await supervisor.stop('p');
            await supervisor.advanceTo(clock.now() + hours * HOUR);
            await supervisor.resume('p');
            await expectNothingOverdue(supervisor, clock, 'p');
          }
          const end = await runOut(supervisor, 'p');
          expect(['done', 'failed']).toContain(end.status);
        },
      ),
      { numRuns: 30, endOnFailure: true },
    );
  }, 300_000);

  it('an event reaching several waits of a changed flow counts at each after continue or keep, as on an unchanged flow', async () => {
    await fc.assert(
      fc.asyncProperty(
        workspaceArb,
        contextArb,
        fc.constantFrom('continue' as const, 'keep' as const),
        async (ws, context, choice) => {
          // An inert change: a node nothing leads to changes the signature, not what runs.
          const main = ws[0]!;
          const changed: Flow = {
            ...main,
            nodes: [...main.nodes, { id: 'inert', kind: 'end' }],
          };
          const plain = await setup(ws);
          const moved = await setup(ws);
          const kickWaits = async (s: Supervisor) => {
            const r = await s.mustGet('p');
            // docs/format.md#statuses: only a waiting process is asleep at its waits. A failed one
            // (a work node's $error) keeps them in its snapshot for retry, but no event reaches
            // them (eventToFailed.test.ts), so they are not waits that listen.
            if (r.status !== 'waiting') return 0;
            const flows = await s.sleptOn(r);
            return waitsWithTriggers(r.snapshot, (f) => flows.get(f)).filter((w) =>
              w.triggers.some((t) => t.event === 'kick'),
            ).length;
          };
          await plain.supervisor.start('main', { id: 'p', context });
          await moved.supervisor.start('main', { id: 'p', context });
          // Advance both alike until some wait listens for the event (or the process ends).
          for (let round = 0; round < MAX_ROUNDS; round++) {
            const r = await plain.supervisor.mustGet('p');
            if (r.status !== 'waiting' || (await kickWaits(plain.supervisor)) > 0) break;
            const next = await plain.supervisor.nextDue();
            if (next === null) break;
            await plain.supervisor.advanceTo(next);
            await moved.supervisor.advanceTo(next);
          }
          const listening = await kickWaits(plain.supervisor);
          fc.pre(listening > 0);

          await moved.store.putFlow(changed);
          expect(await moved.supervisor.deliverEvent('kick', 7)).toBe(listening);
          const stood = await moved.supervisor.mustGet('p');
          expect(stood.status).toBe('flow-changed');
          expect(pendingWakes(stood)).toHaveLength(listening);
          const flows = await moved.supervisor.sleptOn(stood);
          expect(liveWaits(stood, (f) => flows.get(f))).toHaveLength(
            waitsWithTriggers(stood.snapshot, (f) => flows.get(f)).length - listening,
          );
          await moved.supervisor.resolve('p', choice);

          expect(await plain.supervisor.deliverEvent('kick', 7)).toBe(listening);
          const a = await runOut(plain.supervisor, 'p');
          const b = await runOut(moved.supervisor, 'p');
          expect(await outcome(moved.supervisor, moved.store, b)).toEqual(
            await outcome(plain.supervisor, plain.store, a),
          );
        },
      ),
      { numRuns: 30, endOnFailure: true },
    );
  }, 300_000);
});

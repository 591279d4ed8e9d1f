import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { testStore } from '../../runtime/store/fixtures/testStore.ts';
import { VirtualClock } from '../../runtime/supervisor/clock.ts';
import { Supervisor } from '../../runtime/supervisor/supervisor.ts';
import type { Flow } from '../../shared/schema.ts';
import { snapshotAsOf } from './asOf.ts';
import { overlayOf, scopeAt } from './overlay.ts';
import { scopeLevels } from './scopePath.ts';

const nested = (
  JSON.parse(readFileSync('examples/nested-subflow.flows.json', 'utf8')) as { flows: Flow[] }
).flows;

async function onboarding() {
  const store = await testStore('subflow-overlay');
  for (const f of nested) await store.putFlow(f);
  const supervisor = new Supervisor(store, new VirtualClock(Date.UTC(2026, 0, 1)));
  await supervisor.start('onboarding', { id: 'p', context: {} });
  const record = await supervisor.mustGet('p');
  return { store, supervisor, record, flows: await supervisor.sleptOn(record) };
}

describe('a sub-flow opened in place shows the position of the child there', () => {
  it('at each depth: the sub-flow node runs above, the child’s wait and what ran inside below', async () => {
    const { store, record, flows } = await onboarding();
    const journal = await store.journal('p');
    const top = overlayOf(record, journal, flows);
    expect(top.get('checks')).toMatchObject({ state: 'running', visits: 0 });
    expect(top.get('prepare')).toMatchObject({ state: 'ran', visits: 1 });

    const checks = overlayOf(record, journal, flows, ['checks']);
    expect(checks.get('identity')).toMatchObject({ state: 'ran', visits: 1 });
    expect(checks.get('review')).toMatchObject({ state: 'running' });
    // Nodes of the top flow with the same id (start) are not mistaken for the child's.
    expect(checks.get('start')).toMatchObject({ state: 'ran', visits: 1 });
    expect(checks.has('prepare')).toBe(false);

    const review = overlayOf(record, journal, flows, ['checks', 'review']);
    expect(review.get('ask')).toMatchObject({ state: 'waiting', due: null, visits: 0 });
    expect(review.has('record')).toBe(false);
    expect(scopeAt(record.snapshot.scope, ['checks', 'review'])?.flow).toBe('review');
  });

  it('a sub-flow that has completed shows what ran there, from the journal, with its visits', async () => {
    const { store, supervisor } = await onboarding();
    await supervisor.submitHuman('p', 'checks/review/ask', { approved: true });
    const record = await supervisor.mustGet('p');
    expect(record.status).toBe('done');
    const review = overlayOf(record, await store.journal('p'), await supervisor.sleptOn(record), [
      'checks',
      'review',
    ]);
    expect(review.get('ask')).toMatchObject({ state: 'ran', visits: 1 });
    expect(review.get('record')).toMatchObject({ state: 'ran', visits: 1 });
  });

  it('the breadcrumb’s levels name the top flow, then each sub-flow node with the flow it calls', async () => {
    const { flows } = await onboarding();
    expect(scopeLevels('onboarding', ['checks', 'review'], flows)).toEqual([
      { path: [], flow: 'onboarding', label: 'Onboarding with nested sub-flows' },
      { path: ['checks'], flow: 'checks', label: 'Run the checks (checks)' },
      { path: ['checks', 'review'], flow: 'review', label: 'Human review (review)' },
    ]);
    // A node that is not a sub-flow node (the flow changed since) ends the path there.
    expect(scopeLevels('onboarding', ['prepare', 'x'], flows)).toHaveLength(1);
  });
});

describe('the snapshot as of a journal entry', () => {
  it('is the one kept by the entry, or by the last entry of the same commit', async () => {
    const { store, supervisor } = await onboarding();
    await supervisor.submitHuman('p', 'checks/review/ask', { approved: true });
    const journal = await store.journal('p');
    const waited = journal.findIndex((e) => e.type === 'waited');
    const asOf = snapshotAsOf(journal, waited)!;
    expect(asOf.entry).toBe(waited);
    const record = { snapshot: asOf.snapshot };
    const flows = await supervisor.sleptOn(await supervisor.mustGet('p'));
    // As of falling asleep, the overlay shows the wait, not what ran after it.
    const review = overlayOf(record, journal.slice(0, waited + 1), flows, ['checks', 'review']);
    expect(review.get('ask')).toMatchObject({ state: 'waiting' });
    // An entry without a snapshot of its own shows that of the end of its commit: a wake runs
    // to its next stop and commits once (group commit), its last entry keeping the snapshot.
    const written = journal.findIndex((e) => e.type === 'context-written');
    expect(journal[written]!.snapshot).toBeUndefined();
    const end = journal.findIndex((e, i) => i > written && e.snapshot !== undefined);
    expect(end).toBeGreaterThan(written);
    expect(snapshotAsOf(journal, written)).toEqual({
      snapshot: journal[end]!.snapshot,
      entry: end,
    });
    expect(
      snapshotAsOf(
        journal.map(({ snapshot: _s, ...e }) => e),
        0,
      ),
    ).toBeUndefined();
  });
});

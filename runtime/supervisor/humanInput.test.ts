import { describe, expect, it } from 'vitest';
import { edge, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor } from './supervisor.ts';

/** A loop that asks a person to approve each pass, and counts the approvals. */
const approvals = flow({
  id: 'approvals',
  nodes: [
    start(),
    wait('approve', [
      { id: 'ok', human: { prompt: 'Approve?', fields: [{ name: 'yes', type: 'boolean' }] } },
    ]),
    work('count', { n: 'n + 1' }),
  ],
  edges: [edge('start', 'approve'), edge('approve', 'count'), edge('count', 'approve')],
});

async function setup() {
  const store = await testStore();
  await store.putFlow(approvals);
  const supervisor = new Supervisor(store, new VirtualClock(Date.UTC(2026, 0, 1)));
  await supervisor.start('approvals', { id: 'p', context: { n: 0 } });
  const waitSeq = async () => (await supervisor.mustGet('p')).snapshot.scope.waits[0]!.seq;
  const n = async () =>
    ((await store.getContext((await supervisor.mustGet('p')).contextId))!.value as { n: number }).n;
  return { supervisor, waitSeq, n };
}

describe('human input is bound to the wait it answers (runtime/supervisor/humanInput.ts)', () => {
  it('rule: a double-submitted form completes one pass; the second answer is refused, saying why', async () => {
    const { supervisor, waitSeq, n } = await setup();
    const shown = await waitSeq();
    const answers = await Promise.allSettled([
      supervisor.submitHuman('p', 'approve', { yes: true }, 'ok', shown),
      supervisor.submitHuman('p', 'approve', { yes: true }, 'ok', shown),
    ]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected']);
    expect((answers[1] as PromiseRejectedResult).reason).toHaveProperty(
      'message',
      'this form was already answered: process "p" has moved on from the wait at "approve" it was shown for; nothing was changed',
    );
    expect(await n()).toBe(1);
    // The next pass has a wait of its own, which its own form answers.
    const next = await waitSeq();
    expect(next).not.toBe(shown);
    await supervisor.submitHuman('p', 'approve', { yes: false }, 'ok', next);
    expect(await n()).toBe(2);
  });

  it('an answer to a stopped process is refused for that reason, and counts once it is resumed', async () => {
    const { supervisor, waitSeq, n } = await setup();
    const shown = await waitSeq();
    await supervisor.stop('p');
    await expect(
      supervisor.submitHuman('p', 'approve', { yes: true }, 'ok', shown),
    ).rejects.toThrow('process "p" is stopped, not waiting for a person');
    await supervisor.resume('p');
    await supervisor.submitHuman('p', 'approve', { yes: true }, 'ok', shown);
    expect(await n()).toBe(1);
  });
});

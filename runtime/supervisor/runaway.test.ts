import { describe, expect, it } from 'vitest';
import { chain, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import type { PendingWake } from './records.ts';
import { Supervisor, type StepWatch } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);

const mailbox = flow({
  id: 'mailbox',
  nodes: [
    start(),
    work('prepare', { ready: 'true' }),
    wait('listen', [{ id: 'mail', event: 'mail', into: 'got' }]),
    end(),
  ],
  edges: chain('start', 'prepare', 'listen', 'end'),
});

type Heard = ['entering', string, string, PendingWake | null] | ['left', string];

async function setup() {
  const store = await testStore();
  await store.putFlow(mailbox);
  const heard: Heard[] = [];
  const watch: StepWatch = {
    entering: (process, path, wake) => heard.push(['entering', process, path, wake]),
    left: (process) => heard.push(['left', process]),
  };
  const supervisor = new Supervisor(store, new VirtualClock(T0), { watch });
  return { store, supervisor, heard };
}

describe('supervisor: a runaway stopped from outside (the app ends its worker)', () => {
  it('the watch hears each node a step enters, the wake it carries, and when the step is over', async () => {
    const { supervisor, heard } = await setup();
    await supervisor.start('mailbox', { id: 'p', context: {} });
    expect(heard).toEqual([
      ['entering', 'p', 'start', null],
      ['left', 'p'],
      ['entering', 'p', 'prepare', null],
      ['left', 'p'],
      ['entering', 'p', 'listen', null],
      ['left', 'p'],
    ]);
    heard.length = 0;
    await supervisor.deliverEvent('mail', { n: 1 }, 'p');
    const [first] = heard;
    expect(first?.[0]).toBe('entering');
    expect(first?.[2]).toBe('listen');
    expect(first?.[3]).toMatchObject({ trigger: 'mail', payload: { n: 1 } });
    expect(heard.filter((h) => h[0] === 'left')).toHaveLength(
      heard.filter((h) => h[0] === 'entering').length,
    );
  });

  it('failRunaway fails the node, writes nothing, and keeps the wake so that retry fires it', async () => {
    const { supervisor, store } = await setup();
    const started = await supervisor.start('mailbox', { id: 'p', context: {} });
    const waitSeq = started.snapshot.scope.waits[0]!.seq;
    const wake: PendingWake = { seq: waitSeq, trigger: 'mail', payload: { n: 2 } };
    const message = 'did not finish within 1.5 seconds; the runtime was restarted';

    const failed = await supervisor.failRunaway('p', 'listen', message, wake);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe(`node "listen": ${message}`);
    expect((await store.getProcess('p'))!.status).toBe('failed');
    expect((await store.getContext(started.contextId))!.value).toEqual({ ready: true });
    const journal = await store.journal('p');
    expect(journal.at(-1)).toMatchObject({ type: 'failed', node: 'listen', message });

    const retried = await supervisor.retry('p');
    expect(retried.status).toBe('done');
    expect((await store.getContext(started.contextId))!.value).toEqual({
      ready: true,
      got: { n: 2 },
    });
  });

  it('failRunaway fails a stopped process that was being stepped', async () => {
    const { supervisor } = await setup();
    await supervisor.start('mailbox', { id: 'p', context: {}, paused: true });
    const failed = await supervisor.failRunaway('p', 'start', 'stuck', null);
    expect(failed.status).toBe('failed');
    expect(failed.snapshot.failed).toEqual({ path: 'start', message: 'stuck' });
  });

  it('failRunaway leaves a process that already stopped on its own as it is', async () => {
    const { supervisor, store } = await setup();
    await supervisor.start('mailbox', { id: 'p', context: {} });
    await supervisor.deliverEvent('mail', 1, 'p');
    const before = await store.getProcess('p');
    expect(before!.status).toBe('done');
    await supervisor.failRunaway('p', 'listen', 'stuck', null);
    expect(await store.getProcess('p')).toEqual(before);
  });
});

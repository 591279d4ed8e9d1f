import { describe, expect, it } from 'vitest';
import { edge, end, flow, start, wait } from '../../shared/fixtures/flows.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor } from './supervisor.ts';

/** Waits for an event and for a person, each into the context. */
const door = flow({
  id: 'door',
  nodes: [
    start(),
    wait('listen', [
      { id: 'mail', event: 'mail', into: 'got' },
      { id: 'ask', human: { prompt: 'Note?', fields: [{ name: 'note', type: 'string' }] } },
    ]),
    end(),
  ],
  edges: [edge('start', 'listen'), edge('listen', 'end')],
});

/** Just over the 1 MB a context holds, as JSON. */
const huge = 'x'.repeat(1_000_001);

async function setup() {
  const store = await testStore('door');
  await store.putFlow(door);
  const supervisor = new Supervisor(store, new VirtualClock(Date.UTC(2026, 0, 1)));
  await supervisor.start('door', { id: 'p', context: { n: 1 } });
  /** Everything a refused input must leave as it was. */
  const stored = async () => {
    const record = await supervisor.mustGet('p');
    return {
      processes: (await store.listProcesses()).map((x) => x.id),
      record,
      context: await store.getContext(record.contextId),
      journal: (await store.journal('p')).length,
      changes: (await store.contextChanges(record.contextId)).length,
    };
  };
  return { supervisor, stored };
}

describe('bad input is refused at the door, before anything is stored (inputChecks.ts)', () => {
  it.each([
    [
      'an event payload',
      (s: Supervisor) => s.deliverEvent('mail', { body: huge }, 'p'),
      /the payload of event "mail" is 1,000,0\d\d characters as JSON; at most 1,000,000/,
    ],
    [
      'human input',
      (s: Supervisor) => s.submitHuman('p', 'listen', { note: huge }, 'ask'),
      /"listen": the input is 1,000,0\d\d characters/,
    ],
    [
      'a context edit',
      (s: Supervisor) => s.replaceContext('p', { note: huge }),
      /the context is 1,000,0\d\d characters/,
    ],
    [
      'a write at a path',
      (s: Supervisor) => s.setContext('p', 'note', huge),
      /the value for "note" is 1,000,003 characters/,
    ],
  ])(
    'rule: %s over 1 MB is refused with a message, and nothing stored changes',
    async (_what, enter, message) => {
      const { supervisor, stored } = await setup();
      const before = await stored();
      await expect(enter(supervisor)).rejects.toThrow(message);
      expect(await stored()).toEqual(before);
    },
  );

  it.each([
    [42, 'got a number'],
    [[1, 2], 'got an array'],
    ['text', 'got a string'],
    [null, 'got null'],
    [{ big: huge }, 'the first context is 1,000,011 characters as JSON'],
  ])(
    'rule: a first context %j is refused (%s), and no process or context is stored',
    async (context, message) => {
      const { supervisor, stored } = await setup();
      const before = await stored();
      await expect(supervisor.start('door', { id: 'q', context })).rejects.toThrow(message);
      await expect(supervisor.mustGet('q')).rejects.toThrow('there is no process "q"');
      expect(await stored()).toEqual(before);
    },
  );

  it('an input just within the limit is taken', async () => {
    const { supervisor } = await setup();
    const fits = 'x'.repeat(900_000);
    expect(await supervisor.deliverEvent('mail', fits, 'p')).toBe(1);
  });
});

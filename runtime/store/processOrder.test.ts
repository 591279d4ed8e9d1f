import { describe, expect, it } from 'vitest';
import { minimalFlow } from '../../shared/fixtures/flows.ts';
import { VirtualClock } from '../supervisor/clock.ts';
import type { ProcessRecord } from '../supervisor/records.ts';
import type { Store, WindowQuery } from '../supervisor/store.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { T0 } from './fixtures/storeScenarios.ts';
import { storeCounts } from './fixtures/storeCounts.ts';
import { testStore } from './fixtures/testStore.ts';
import { MemoryStore } from './memoryStore.ts';
import { ResilientStore } from './resilientStore.ts';

// The process table sorts by any column and searches by id, flow and status
// (Store.processWindow's `order` and `search`, countProcesses' `search`): every store answers
// the same, ties stay in order of creation, and the database reads only the window's records.

type Fields = Pick<ProcessRecord, 'id' | 'flow' | 'status' | 'due' | 'wakes' | 'created'>;

/** Five processes whose columns tie in pairs, created in an order no column sorts them in. */
const FIVE: Record<'A' | 'B' | 'C' | 'D' | 'E', Fields> = {
  A: { id: 'p-10', flow: 'b', status: 'done', due: null, wakes: 2, created: 1 },
  B: { id: 'p-9', flow: 'a', status: 'waiting', due: T0 + 300, wakes: 0, created: 2 },
  C: { id: 'p-2', flow: 'a', status: 'failed', due: null, wakes: 5, created: 3 },
  D: { id: 'p-1', flow: 'c', status: 'waiting', due: T0 + 100, wakes: 2, created: 4 },
  E: { id: 'q-3', flow: 'b', status: 'waiting', due: T0 + 300, wakes: 0, created: 5 },
};
const letterOf = new Map(Object.entries(FIVE).map(([letter, f]) => [f.id, letter]));
const letters = (ps: ProcessRecord[]) => ps.map((p) => letterOf.get(p.id)).join('');

/** A started process to copy the five from: a record every store restores as valid. */
async function like(): Promise<ProcessRecord> {
  const store = new MemoryStore();
  await store.putFlow(minimalFlow('a'));
  return new Supervisor(store, new VirtualClock(T0)).start('a', { id: 'like' });
}

async function filled(store: Store): Promise<Store> {
  const base = await like();
  for (const f of Object.values(FIVE)) await store.putProcess({ ...base, ...f });
  return store;
}

/** Refuses every process write, as a full disk does: the resilient store then answers from memory. */
function refusing<S extends Store>(store: S): S {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'putProcess')
        return () => Promise.reject(new DOMException('full', 'QuotaExceededError'));
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

const STORES: { name: string; open: () => Promise<Store> }[] = [
  { name: 'IdbStore', open: async () => filled(await testStore('order')) },
  { name: 'MemoryStore', open: () => filled(new MemoryStore()) },
  {
    name: 'ResilientStore',
    open: async () => filled(new ResilientStore(await testStore('order'))),
  },
  {
    name: 'ResilientStore holding unsaved writes',
    open: async () => filled(new ResilientStore(refusing(await testStore('order')))),
  },
];

const all = (q: Omit<WindowQuery, 'offset' | 'limit'>): WindowQuery => ({
  offset: 0,
  limit: Infinity,
  ...q,
});

describe.each(STORES)('$name: the listing sorted and searched', ({ open }) => {
  it('rule: each column sorts both ways, and ties stay in order of creation in either direction', async () => {
    const store = await open();
    const by = async (order: WindowQuery['order']) =>
      letters(await store.processWindow(all({ order })));
    expect(await by(undefined)).toBe('ABCDE');
    expect(await by({ by: 'created', desc: true })).toBe('EDCBA');
    // Ids as people read them: p-9 before p-10.
    expect(await by({ by: 'id', desc: false })).toBe('DCBAE');
    expect(await by({ by: 'id', desc: true })).toBe('EABCD');
    expect(await by({ by: 'flow', desc: false })).toBe('BCAED');
    expect(await by({ by: 'flow', desc: true })).toBe('DAEBC');
    // In the page's order of the flows' names; a flow it does not list comes last.
    expect(await by({ by: 'flow', desc: false, flows: ['b', 'c'] })).toBe('AEDBC');
    // Statuses in the order lists show them: running, waiting, done, failed…
    expect(await by({ by: 'status', desc: false })).toBe('BDEAC');
    expect(await by({ by: 'status', desc: true })).toBe('CABDE');
    // No due time goes last, both ways.
    expect(await by({ by: 'due', desc: false })).toBe('DBEAC');
    expect(await by({ by: 'due', desc: true })).toBe('BEDAC');
    expect(await by({ by: 'wakes', desc: false })).toBe('BEADC');
    expect(await by({ by: 'wakes', desc: true })).toBe('CADBE');
  });

  it('rule: a window of a sorted listing is that part of it, with or without a status', async () => {
    const store = await open();
    const id = { by: 'id', desc: false } as const;
    expect(letters(await store.processWindow({ offset: 1, limit: 2, order: id }))).toBe('CB');
    expect(letters(await store.processWindow({ offset: 4, limit: 9, order: id }))).toBe('E');
    const desc = { by: 'created', desc: true } as const;
    expect(letters(await store.processWindow({ offset: 1, limit: 2, order: desc }))).toBe('DC');
    expect(
      letters(await store.processWindow({ offset: 1, limit: 5, status: 'waiting', order: desc })),
    ).toBe('DB');
    const due = { by: 'due', desc: true } as const;
    expect(letters(await store.processWindow(all({ status: 'waiting', order: due })))).toBe('BED');
  });

  it('rule: a search finds a process by id, flow or status, ignoring case, or by the flows it names', async () => {
    const store = await open();
    const find = async (text: string, flows?: string[]) =>
      letters(await store.processWindow(all({ search: { text, ...(flows ? { flows } : {}) } })));
    expect(await find('P-1')).toBe('AD');
    expect(await find('wait')).toBe('BDE');
    expect(await find('b')).toBe('AE');
    // A flow found by its name (which the page knows) is named by id.
    expect(await find('Payment', ['c'])).toBe('D');
    expect(await find('nothing like it')).toBe('');
    // Blank finds every process.
    expect(await find('  ')).toBe('ABCDE');
    // With a status and an order.
    expect(
      letters(
        await store.processWindow(
          all({ status: 'waiting', search: { text: 'p-' }, order: { by: 'due', desc: true } }),
        ),
      ),
    ).toBe('BD');
  });

  it('rule: the counts are of what the search finds (of one flow, if asked)', async () => {
    const store = await open();
    expect(await store.countProcesses(undefined, { text: 'WAIT' })).toEqual({
      total: 3,
      byStatus: { waiting: 3 },
    });
    expect(await store.countProcesses('b', { text: 'p' })).toEqual({
      total: 1,
      byStatus: { done: 1 },
    });
    expect(await store.countProcesses(undefined, { text: 'x', flows: ['a'] })).toEqual({
      total: 2,
      byStatus: { waiting: 1, failed: 1 },
    });
    expect((await store.countProcesses(undefined, { text: '' })).total).toBe(5);
  });
});

describe('IdbStore: a sorted or searched window of 3,000 processes', () => {
  const MANY = 3000;
  async function crowded() {
    const store = await testStore('order-many');
    const base = await like();
    await store.saveBatch({
      flows: [],
      versions: [],
      contexts: [],
      changes: [],
      processes: Array.from({ length: MANY }, (_, i) => ({
        ...base,
        id: `p-${(i * 7919) % MANY}`,
        flow: i % 2 ? 'a' : 'b',
        status: i % 3 ? ('done' as const) : ('waiting' as const),
        due: i % 3 ? null : T0 + (i % 10),
        wakes: i % 4,
        created: i,
      })),
      journal: [],
    });
    return store;
  }

  it('rule: an order by id, flow, status or due, a search, and creation backwards read only the window of records', async () => {
    const store = await crowded();
    const queries: WindowQuery[] = [
      { offset: 1000, limit: 40, order: { by: 'id', desc: false } },
      { offset: 1000, limit: 40, order: { by: 'flow', desc: true } },
      { offset: 1000, limit: 40, order: { by: 'status', desc: false } },
      { offset: 500, limit: 40, order: { by: 'due', desc: false } },
      { offset: 10, limit: 40, search: { text: 'p-1' } },
      { offset: 1000, limit: 40, order: { by: 'created', desc: true } },
    ];
    for (const query of queries) {
      const before = storeCounts(store).processReads;
      const rows = await store.processWindow(query);
      expect(rows).toHaveLength(40);
      expect(storeCounts(store).processReads - before).toBe(40);
    }
    const before = storeCounts(store).processReads;
    expect((await store.countProcesses(undefined, { text: 'wait' })).total).toBe(MANY / 3);
    expect(storeCounts(store).processReads - before).toBe(0);
    // The window of ids is that part of all the ids sorted.
    const window = await store.processWindow(queries[0]!);
    expect(window[0]!.id).toBe('p-1000');
  });
});

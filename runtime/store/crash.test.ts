import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../supervisor/clock.ts';
import type { JournalEntry } from '../supervisor/records.ts';
import type { Store } from '../supervisor/store.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { HOUR, T0, hourly, withoutSeq } from './fixtures/storeScenarios.ts';
import { IdbStore } from './idbStore.ts';
import { storeCounts } from './fixtures/storeCounts.ts';
import { Crash, crashingStore } from './fixtures/crashingStore.ts';

const END = T0 + 6 * HOUR;
let databases = 0;

/**
 * A scenario: hourly loops of five passes, started, then six hours go by. The advance runs the
 * passes in memory and commits them in batches (wakeBatcher.ts), one commit per process per
 * batch: with the default batch, all five passes of every process in one transaction; with
 * `batchSteps` (three acts a pass), a batch holds fewer, so that a crash falls between batches
 * too. With `keepPasses`, the advance applies the journal's retention rule to each batch before
 * it commits (the app's advance): the outcome is compared once the rule has been applied to the
 * stored journal, as the app applies it after every batch. `commits`: the commits each process's
 * start and advance ask for. `sample`: the share of the later await points tried, so that the
 * test stays quick.
 */
interface CrashScenario {
  name: string;
  processes: string[];
  batchSteps?: number;
  keepPasses?: number;
  commits: number;
  sample: number;
}

const SCENARIOS: CrashScenario[] = [
  { name: 'one process, its five passes in one batch', processes: ['p'], commits: 2, sample: 0.5 },
  {
    name: 'one process, two passes a batch',
    processes: ['p'],
    batchSteps: 6,
    commits: 1 + 3,
    sample: 0.5,
  },
  {
    name: 'three processes due together, all in one batch',
    processes: ['p', 'q', 'r'],
    commits: 2,
    sample: 0.3,
  },
  {
    name: 'three processes due together, two wakes a batch',
    processes: ['p', 'q', 'r'],
    batchSteps: 6,
    commits: 1 + 5,
    sample: 0.12,
  },
  {
    // Ten acts a batch (an advance with the rule runs ten times the batch): 4 passes, then 1.
    name: 'one process, its older passes summed up before each batch commits',
    processes: ['p'],
    batchSteps: 1,
    keepPasses: 1,
    commits: 1 + 2,
    sample: 0.5,
  },
];

const supervisorFor = (store: Store, clock: VirtualClock, s: CrashScenario) =>
  new Supervisor(store, clock, s.batchSteps ? { maxStepsPerBatch: s.batchSteps } : {});

async function run(supervisor: Supervisor, s: CrashScenario, only?: Set<string>) {
  for (const id of s.processes) {
    if (only && !only.has(id)) continue;
    await supervisor.start('hourly', { id, context: { count: 0 } });
  }
  await supervisor.advanceTo(END, s.keepPasses === undefined ? {} : { keepPasses: s.keepPasses });
}

async function outcome(store: IdbStore, s: CrashScenario) {
  const out: Record<string, unknown> = {};
  for (const id of s.processes) {
    if (s.keepPasses !== undefined) await store.pruneJournal(id, s.keepPasses);
    out[id] = await outcomeOf(store, id);
  }
  return out as Record<string, Awaited<ReturnType<typeof outcomeOf>>>;
}

async function outcomeOf(store: IdbStore, id: string) {
  const p = (await store.getProcess(id))!;
  // Which id the context got is not the point (a crash inside start leaves an unused one behind).
  const anonymous = <T>(value: T): T =>
    JSON.parse(JSON.stringify(value).replaceAll(JSON.stringify(p.contextId), '"<context>"'));
  const context = anonymous((await store.getContext(p.contextId))!);
  const stored = await store.journal(id);
  const journal = anonymous(stored.map(withoutSeq));
  // Entries are numbered inside each commit's transaction (schema 5): after a crash and a run
  // again, they still read back in strictly increasing order, none numbered twice.
  const seqs = stored.map((e) => (e as { seq?: number }).seq ?? Number.NaN);
  return {
    seqsInOrder: seqs.every((seq, i) => i === 0 || seq > seqs[i - 1]!),
    status: p.status,
    visits: p.snapshot.visits,
    context,
    changes: anonymous((await store.contextChanges(p.contextId)).map(withoutSeq)),
    journal,
  };
}

const ranKeys = (journal: JournalEntry[]) =>
  journal.flatMap((e) => (e.type === 'ran' ? [`${e.node}@${JSON.stringify(e.gen)}`] : []));

/** Runs the scenario, crashing at `crashAt`, then reopens, recovers and finishes it. */
async function crashAndRecover(s: CrashScenario, crashAt: number) {
  const name = `crash-${++databases}`;
  const clock = new VirtualClock(T0);
  const first = await IdbStore.open(name);
  await first.putFlow(hourly(5));
  const crashing = crashingStore(first, crashAt);
  const tab = supervisorFor(crashing.store, clock, s);
  const error = await run(tab, s).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof Crash)) throw error ?? new Error(`no crash at point ${crashAt}`);
  first.close();

  // Reopen: a new connection and a new supervisor on the same database, with the same clock.
  const reopened = await IdbStore.open(name);
  const supervisor = new Supervisor(reopened, clock);
  await supervisor.wakeDue();
  await supervisor.runAll();
  const missing = new Set<string>();
  for (const id of s.processes) if (!(await reopened.getProcess(id))) missing.add(id);
  await run(supervisor, s, missing);
  const result = await outcome(reopened, s);
  reopened.close();
  return { result, restarted: missing.size > 0 };
}

/** A small seeded generator (mulberry32), so that a subset of crash points is the same each run. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(SCENARIOS)('crash at any await point: $name', (s) => {
  it('reopening and resuming never loses a committed write and never runs a committed step twice', async () => {
    const name = `crash-${++databases}`;
    const clock = new VirtualClock(T0);
    const db = await IdbStore.open(name);
    await db.putFlow(hourly(5));
    // How many commits the runs asked for, and how many write transactions held them.
    let commits = 0;
    const commitStep = db.commitStep.bind(db);
    db.commitStep = (c) => {
      commits++;
      return commitStep(c);
    };
    const transactionsBefore = storeCounts(db).writeTransactions;
    const counting = crashingStore(db, Number.POSITIVE_INFINITY);
    await run(supervisorFor(counting.store, clock, s), s);
    const expected = await outcome(db, s);
    db.close();
    const total = counting.points();

    for (const id of s.processes) {
      const e = expected[id]!;
      expect(e.status).toBe('done');
      expect(e.seqsInOrder).toBe(true);
      expect(e.context.value).toEqual({ count: 5 });
      expect(e.visits).toEqual({ start: 1, tick: 5, sleep: 5, end: 1 });
      if (s.keepPasses !== undefined) {
        // The start and the four older wakes summed up; the last (its timer fires, it ends) kept
        // in full. It writes nothing, so no change of the context is kept, but the context
        // counts all five writes.
        expect(e.journal[0]).toMatchObject({ type: 'summarized', passes: 4 });
        expect(ranKeys(e.journal)).toEqual(['sleep@[4]', 'end@[4]']);
        expect(e.changes).toEqual([]);
        expect(e.context.version).toBe(5);
        continue;
      }
      expect(ranKeys(e.journal)).toEqual([
        'start@[]',
        ...[0, 1, 2, 3, 4].flatMap((pass) => [`tick@[${pass}]`, `sleep@[${pass}]`]),
        'end@[4]',
      ]);
      // Each stop keeps its snapshot, whether its wake committed alone or in a batch: the
      // start, the start's run, each of the five wakes.
      expect(e.journal.filter((x) => x.snapshot).length).toBe(1 + 1 + 5);
    }
    expect(commits).toBe(s.commits * s.processes.length);
    // Due together, the processes' commits share transactions: the starts' (four each: the
    // context, the flow's version, the record, the run) and one per batch.
    if (s.processes.length > 1)
      expect(storeCounts(db).writeTransactions - transactionsBefore).toBeLessThan(
        4 * s.processes.length + commits,
      );

    // Every await point near the start (where a process is created), and a seeded sample of
    // the rest, so the test stays quick.
    const random = seeded(20260101);
    const points = Array.from({ length: total }, (_, i) => i + 1).filter(
      (k) => k <= 40 || k === total || random() < s.sample,
    );
    // A wake reads once and commits once (persistence.md), and a start drives on the record
    // and flows it just wrote and read; the scenario's wakes and its starts still give this
    // many points, enough to crash inside every kind of call.
    expect(total).toBeGreaterThan(25);
    let restarts = 0;
    for (const k of points) {
      const recovered = await crashAndRecover(s, k);
      for (const id of s.processes) {
        const got = recovered.result[id]!;
        const want = expected[id]!;
        const ran = ranKeys(got.journal);
        expect(new Set(ran).size, `a step of ${id} ran twice after a crash at point ${k}`).toBe(
          ran.length,
        );
        expect(
          { status: got.status, visits: got.visits, context: got.context },
          `${id}, crash at point ${k}`,
        ).toEqual({ status: want.status, visits: want.visits, context: want.context });
        expect(got.changes, `context changes of ${id} after a crash at point ${k}`).toEqual(
          want.changes,
        );
        expect(got.journal, `journal of ${id} after a crash at point ${k}`).toEqual(want.journal);
      }
      if (recovered.restarted) restarts++;
    }
    // The first crash points fall in the start, before the process record is written.
    expect(restarts).toBeGreaterThan(0);
  }, 240_000);
});

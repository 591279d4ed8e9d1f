import type { Flow } from '../../shared/schema.ts';
import { earliestTimer } from '../engine/timers.ts';
import { statusOf, waitsWithTriggers } from '../engine/waits.ts';
import type { Clock } from './clock.ts';
import { snapshotAsOf } from './journalSnapshots.ts';
import { pastContext } from './pastContext.ts';
import { CALL_WAITS, type ForkOrigin, type JournalEntry, type ProcessRecord } from './records.ts';
import type { Store } from './store.ts';
import { SupervisorError } from './supervisorError.ts';

/** How a fork starts (`Supervisor.fork`). */
export interface ForkOptions {
  /** The store's key of the journal entry to fork from (its `seq`). */
  seq: number;
  /** 'past': on a new context, a copy of the context as of then; 'live': on the source's own. */
  context: ForkOrigin['context'];
  /** The new process's id; one is made when absent. */
  id?: string;
}

/** What a fork reads and makes besides the store: the supervisor's clock, ids and flows. */
export interface ForkDeps {
  store: Store;
  clock: Clock;
  newId: (kind: 'process' | 'context') => string;
  /** The flows a process stands on (the versions it records), for its waits' timers and events. */
  sleptOn: (record: ProcessRecord) => Promise<Map<string, Flow>>;
}

/**
 * Starts a new process of the same flow at the position a journal entry keeps (LangGraph's fork
 * from a checkpoint, Temporal's reset): on a copy of the context as of then, or on the live
 * context it shares with the source. It stands on the source's flow versions, so a flow edited
 * since shows as changed at its first wake and the designer chooses how to go on. Its first
 * journal entry says where it came from. Nothing is stored when the entry, its snapshot or its
 * past context cannot be found (docs/format.md#the-context-the-snapshot-and-the-signature: the
 * snapshot holds no context values, so the context is rebuilt from the journal, pastContext.ts).
 */
export async function forkProcess(
  deps: ForkDeps,
  sourceId: string,
  options: ForkOptions,
): Promise<ProcessRecord> {
  const { store } = deps;
  if (options.context !== 'past' && options.context !== 'live') {
    throw new SupervisorError(
      `a fork takes the context "past" or "live", not "${String(options.context)}"`,
    );
  }
  const source = await store.getProcess(sourceId);
  if (!source) throw new SupervisorError(`there is no process "${sourceId}" to fork`);
  const id = options.id ?? deps.newId('process');
  if (await store.getProcess(id)) throw new SupervisorError(`a process "${id}" already exists`);
  const journal = await store.journal(sourceId);
  const index = journal.findIndex((e) => (e as { seq?: unknown }).seq === options.seq);
  if (index === -1) {
    throw new SupervisorError(
      `process "${sourceId}" has no journal entry ${options.seq} (summed up, or never written)`,
    );
  }
  const kept = snapshotAsOf(journal, index);
  if (!kept)
    throw new SupervisorError(`no position was kept with entry ${options.seq} of "${sourceId}"`);
  const snapshot = structuredClone(kept.snapshot);

  let contextId = source.contextId;
  let context: { version: number; value: unknown };
  if (options.context === 'past') {
    const past = pastContext(journal, kept.entry, await store.contextChanges(source.contextId));
    if (!past.ok)
      throw new SupervisorError(`cannot fork on the context as of then: ${past.problem}`);
    do contextId = deps.newId('context');
    while (await store.getContext(contextId));
    context = { version: 0, value: past.value };
  } else {
    const live = await store.getContext(contextId);
    if (!live) throw new SupervisorError(`the context of "${sourceId}" is missing from the store`);
    context = { version: live.version, value: live.value };
  }

  const flows = await deps.sleptOn(source);
  const lookup = (f: string) => flows.get(f);
  const engine = statusOf(snapshot);
  const waits = engine === 'waiting' ? waitsWithTriggers(snapshot, lookup) : [];
  const last = await store.lastCreated();
  const record: ProcessRecord = {
    id,
    flow: source.flow,
    contextId,
    status: engine,
    snapshot,
    due: engine === 'waiting' ? (earliestTimer(snapshot, lookup)?.due ?? null) : null,
    versions: { ...source.versions },
    pinned: source.pinned,
    error: snapshot.failed ? `node "${snapshot.failed.path}": ${snapshot.failed.message}` : null,
    changes: [],
    pendingWake: null,
    created: (last ?? -1) + 1,
    ...(engine === 'waiting' && {
      waitsFor: [
        ...new Set(
          waits.flatMap((w) => [
            ...w.triggers.flatMap((t) => t.event ?? []),
            ...(w.call ? [CALL_WAITS] : []),
          ]),
        ),
      ],
    }),
  };
  if (
    options.context === 'past' &&
    !(await store.putContext({ id: contextId, ...context }, null))
  ) {
    throw new SupervisorError(`a context "${contextId}" already exists`);
  }
  const from: ForkOrigin = { process: sourceId, seq: options.seq, context: options.context };
  const started: JournalEntry = {
    type: 'started',
    flow: source.flow,
    contextId,
    context,
    from,
    process: id,
    at: deps.clock.now(),
    snapshot,
  };
  await store.putProcess(record, [started]);
  return record;
}

/**
 * Records read back are restored, not trusted (docs/persistence.md, "Records read back"). Each
 * record type has a version, stored on the record as `recordVersion` (a record without one is
 * version 1: everything written before versions were kept). Reading an older record runs its
 * type's migrations one version at a time up to the current shape, then checks that shape; a
 * record that cannot be restored is reported by what it is and what is wrong with it, and left
 * in the database as it is until something writes it again. Restoring never writes.
 */
import { PROCESS_STATUSES, type ProcessStatus } from '../supervisor/records.ts';
import { pinsSchema } from '../../shared/pins.ts';

/** A raw record as the database holds it: anything at all, until checked. */
type Raw = Record<string, unknown>;

/** One record type: how to name one, its current version, the steps up to it and its checks. */
export interface RecordType {
  /** What a message calls a record of this type, e.g. `process "p1"`. */
  name(raw: Raw, key: unknown): string;
  version: number;
  /** `migrations[n]` turns a version `n - 1` record into a version `n` one. */
  migrations: Record<number, (raw: Raw) => Raw>;
  /** What is wrong with a record of the current shape, or null. */
  check(raw: Raw): string | null;
}

/** A record that could not be restored: which one, and why. */
export interface RecordProblem {
  store: string;
  key: unknown;
  /** A sentence naming the record and what is wrong, for the designer. */
  message: string;
}

/** Thrown where one record was asked for and it cannot be restored. */
export class DamagedRecordError extends Error {
  constructor(readonly problem: RecordProblem) {
    super(problem.message);
    this.name = 'DamagedRecordError';
  }
}

export const VERSION_FIELD = 'recordVersion';

/** A key or a name: longer than this is not something wakeflow wrote. */
const MAX_ID = 1_000;
/** Times are ms since the epoch within what a Date holds. */
const MAX_TIME = 8.64e15;

export type Restored<T> = { ok: true; value: T } | { ok: false; problem: RecordProblem };

/**
 * Migrates and checks a raw record of `type`, read from `store` at `key`; the value handed back
 * is a new object without the version field (the raw one is never changed).
 */
export function restore<T>(
  type: RecordType,
  store: string,
  key: unknown,
  raw: unknown,
): Restored<T> {
  const fail = (what: string): Restored<T> => ({
    ok: false,
    problem: {
      store,
      key,
      message: `${isObject(raw) ? type.name(raw, key) : `the record at ${describeKey(key)} in "${store}"`} cannot be restored: ${what}; it is left as stored`,
    },
  });
  if (!isObject(raw)) return fail(`it is ${kindOf(raw)}, not an object`);
  const version = raw[VERSION_FIELD] ?? 1;
  if (!Number.isInteger(version) || (version as number) < 1)
    return fail(`its record version is ${show(version)}, not a whole number from 1`);
  if ((version as number) > type.version)
    return fail(
      `it was written by a newer wakeflow (record version ${String(version)}; this one reads up to ${type.version})`,
    );
  let record: Raw = { ...raw };
  delete record[VERSION_FIELD];
  try {
    for (let v = (version as number) + 1; v <= type.version; v++)
      record = type.migrations[v]?.(record) ?? record;
  } catch (e) {
    return fail(`its migration failed (${e instanceof Error ? e.message : String(e)})`);
  }
  const problem = type.check(record);
  return problem ? fail(problem) : { ok: true, value: record as T };
}

/** A record as stored: with its type's current version. */
export function stamp<T extends object>(type: RecordType, record: T): T {
  return { ...record, [VERSION_FIELD]: type.version };
}

const STATUSES: readonly ProcessStatus[] = PROCESS_STATUSES;

/**
 * Process records. Version 1: written before record versions (up to schema 2), without the
 * wake counter on the oldest ones and never with `waitsFor`. Version 2: `wakes` always there,
 * `waitsFor` while waiting (a version 1 record has none: its waits count as not listed, so an
 * event still reaches it).
 */
export const PROCESS: RecordType = {
  name: (raw, key) => `process ${quoted(raw.id ?? key)}`,
  version: 2,
  migrations: {
    2: (r) => ({
      ...r,
      // Safe defaults for what a version 1 record may lack; a missing counter starts at 0.
      wakes: r.wakes ?? 0,
      pinned: r.pinned ?? false,
      error: r.error ?? null,
      changes: r.changes ?? [],
      pendingWake: r.pendingWake ?? null,
    }),
  },
  check: (r) =>
    id(r, 'id') ??
    id(r, 'flow') ??
    id(r, 'contextId') ??
    (STATUSES.includes(r.status as ProcessStatus)
      ? null
      : `its status is ${show(r.status)}, not one of ${STATUSES.join(', ')}`) ??
    snapshot(r.snapshot) ??
    time(r, 'due', true) ??
    wholeNumber(r, 'created') ??
    wholeNumber(r, 'wakes', false) ??
    (isObject(r.versions) ? null : `its "versions" is ${kindOf(r.versions)}, not an object`) ??
    (typeof r.pinned === 'boolean'
      ? null
      : `its "pinned" is ${kindOf(r.pinned)}, not true or false`) ??
    (r.error === null || typeof r.error === 'string'
      ? null
      : `its "error" is ${kindOf(r.error)}, not text or null`) ??
    (Array.isArray(r.changes) ? null : `its "changes" is ${kindOf(r.changes)}, not a list`) ??
    (r.pendingWake === null || isObject(r.pendingWake)
      ? null
      : `its "pendingWake" is ${kindOf(r.pendingWake)}, not an object or null`) ??
    (r.waitsFor === undefined ||
    (Array.isArray(r.waitsFor) && r.waitsFor.every((n) => typeof n === 'string'))
      ? null
      : `its "waitsFor" is ${kindOf(r.waitsFor)}, not a list of event names`),
};

/** Contexts, one version so far: `{ id, version, value }`. */
export const CONTEXT: RecordType = {
  name: (raw, key) => `context ${quoted(raw.id ?? key)}`,
  version: 1,
  migrations: {},
  check: (r) =>
    id(r, 'id') ?? wholeNumber(r, 'version', true) ?? ('value' in r ? null : 'it has no "value"'),
};

/** Context changes, one version so far. */
export const CONTEXT_CHANGE: RecordType = {
  name: (raw, key) => `change ${describeKey(key)} of context ${quoted(raw.contextId)}`,
  version: 1,
  migrations: {},
  check: (r) =>
    id(r, 'contextId') ??
    wholeNumber(r, 'version', true) ??
    time(r, 'at') ??
    (Array.isArray(r.writes) ? null : `its "writes" is ${kindOf(r.writes)}, not a list`),
};

/** Journal entries, one version so far (the oldest lack `snapshot`, which the inspector knows). */
export const JOURNAL_ENTRY: RecordType = {
  name: (raw, key) => `journal entry ${describeKey(key)} of process ${quoted(raw.process)}`,
  version: 1,
  migrations: {},
  check: (r) =>
    id(r, 'process') ??
    time(r, 'at') ??
    (typeof r.type === 'string' && r.type.length > 0 && r.type.length <= 64
      ? null
      : `its type is ${show(r.type)}, not the name of an entry`) ??
    (r.snapshot === undefined ? null : snapshot(r.snapshot)),
};

/**
 * A record of the `journal` store (schema 5 on): the entries one write appended for one process,
 * each with its own `seq` (its order in the journal), keyed by the last entry's `seq`. Version 1
 * was a single entry, keyed by its `seq`: it reads as a record of one entry. The entries inside a
 * record carry no version of their own; the record's version covers them (version 2: entries of
 * JOURNAL_ENTRY's version 1).
 */
export const JOURNAL_RECORD: RecordType = {
  name: (raw, key) =>
    `journal ${Array.isArray(raw.entries) ? 'record' : 'entry'} ${describeKey(key)} of process ${quoted(raw.process)}`,
  version: 2,
  migrations: {
    2: (r) => ({ seq: r.seq, process: r.process, entries: [r] }),
  },
  check: (r) => {
    const problem = id(r, 'process') ?? wholeNumber(r, 'seq');
    if (problem) return problem;
    const entries = r.entries;
    if (!Array.isArray(entries))
      return `its "entries" is ${kindOf(entries)}, not a list of entries`;
    if (entries.length === 0) return 'its "entries" is an empty list';
    let previous = 0;
    for (const e of entries as unknown[]) {
      if (!isObject(e)) return `an entry of it is ${kindOf(e)}, not an object`;
      const entryProblem =
        JOURNAL_ENTRY.check(e) ??
        wholeNumber(e, 'seq') ??
        (e.process === r.process
          ? null
          : `its "process" is ${show(e.process)}, not the record's`) ??
        ((e.seq as number) > previous && (e.seq as number) <= (r.seq as number)
          ? null
          : `its "seq" ${show(e.seq)} is out of order`);
      if (entryProblem)
        return entries.length === 1
          ? entryProblem
          : `its entry ${describeKey(e.seq)}: ${entryProblem}`;
      previous = e.seq as number;
    }
    return previous === r.seq ? null : `its key ${show(r.seq)} is not its last entry's "seq"`;
  },
};

/**
 * A call wait's progress between attempts (runtime/calls/callProgress.ts), one version so far:
 * `{ processId, seq, attempts, due, last?, answer?, answerMs? }`.
 */
export const CALL_PROGRESS: RecordType = {
  name: (raw, key) =>
    `call progress of wait ${show(raw.seq)} of process ${quoted(raw.processId ?? key)}`,
  version: 1,
  migrations: {},
  check: (r) =>
    id(r, 'processId') ??
    wholeNumber(r, 'seq') ??
    wholeNumber(r, 'attempts') ??
    time(r, 'due', true) ??
    (r.last === undefined || (isObject(r.last) && typeof r.last.status === 'number')
      ? null
      : `its "last" is ${kindOf(r.last)}, not an attempt's status`) ??
    (r.answer === undefined || (isObject(r.answer) && isObject(r.answer.outcome))
      ? null
      : `its "answer" is ${kindOf(r.answer)}, not an attempt's result`),
};

/** The workspace's flows (documents of format flow/1, docs/format.md), one record version so far. */
export const FLOW: RecordType = {
  name: (raw, key) => `flow ${quoted(raw.id ?? key)}`,
  version: 1,
  migrations: {},
  check: (r) => flowProblem(r),
};

/** A version a process stands on: `{ id, signature, flow }`. */
export const FLOW_VERSION: RecordType = {
  name: (raw, key) => `version ${quoted(raw.signature)} of flow ${quoted(raw.id ?? key)}`,
  version: 1,
  migrations: {},
  check: (r) =>
    id(r, 'id') ??
    id(r, 'signature') ??
    (isObject(r.flow) ? flowProblem(r.flow) : `its "flow" is ${kindOf(r.flow)}, not a flow`),
};

/**
 * Settings (`meta`). Version 1: the value itself, stored as is. Version 2: `{ recordVersion,
 * value }`, so that a setting whose value is a number or text has a version too.
 */
export const SETTING: RecordType = {
  name: (_raw, key) => `setting ${quoted(key)}`,
  version: 2,
  migrations: { 2: (r) => ({ value: r.value }) },
  check: (r) => ('value' in r ? null : 'it has no value'),
};

/** What a setting of wakeflow's must hold; a key wakeflow does not know is kept as it is. */
const SETTING_CHECKS: Record<string, (v: unknown) => string | null> = {
  seeded: (v) => (typeof v === 'boolean' ? null : `it is ${kindOf(v)}, not true or false`),
  openFlow: (v) =>
    typeof v === 'string' && v.length <= MAX_ID ? null : `it is ${kindOf(v)}, not a flow id`,
  journalRetention: (v) =>
    Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 100_000
      ? null
      : `it is ${show(v)}, not a whole number of passes from 1 to 100,000`,
  // The workspace's pinned answers (web/calls/pinStore.ts); a damaged list reads as none.
  pins: (v) => (pinsSchema.safeParse(v).success ? null : 'it is not a list of pins'),
};

/** A setting as stored (version 2: wrapped), and read back: its value, or a problem. */
export const storedSetting = (value: unknown) => ({ [VERSION_FIELD]: SETTING.version, value });

export function restoreSetting(key: string, raw: unknown): Restored<unknown> {
  // Version 1 stored the bare value: wrapped as a version 1 record to go through the same steps.
  const wrapped = isObject(raw) && VERSION_FIELD in raw ? raw : { [VERSION_FIELD]: 1, value: raw };
  const restored = restore<{ value: unknown }>(SETTING, 'meta', key, wrapped);
  if (!restored.ok) return restored;
  const problem = SETTING_CHECKS[key]?.(restored.value.value);
  if (problem)
    return {
      ok: false,
      problem: {
        store: 'meta',
        key,
        message: `setting ${quoted(key)} cannot be restored: ${problem}; its default applies and it is left as stored`,
      },
    };
  return { ok: true, value: restored.value.value };
}

function flowProblem(f: Raw): string | null {
  if (f.format !== 'flow/1') return `its format is ${show(f.format)}, not "flow/1"`;
  return (
    id(f, 'id') ??
    (Array.isArray(f.nodes) ? null : `its "nodes" is ${kindOf(f.nodes)}, not a list`) ??
    (Array.isArray(f.edges) ? null : `its "edges" is ${kindOf(f.edges)}, not a list`)
  );
}

function snapshot(s: unknown): string | null {
  if (!isObject(s)) return `its snapshot is ${kindOf(s)}, not an object`;
  if (s.format !== 'snapshot/1')
    return `its snapshot's format is ${show(s.format)}, not "snapshot/1"`;
  if (!isObject(s.scope)) return `its snapshot's scope is ${kindOf(s.scope)}, not an object`;
  const scope = s.scope;
  for (const list of ['ready', 'waits', 'joins', 'ran', 'children'] as const)
    if (!Array.isArray(scope[list]))
      return `its snapshot's "${list}" is ${kindOf(scope[list])}, not a list`;
  return null;
}

function id(r: Raw, field: string): string | null {
  const v = r[field];
  if (typeof v !== 'string') return `its "${field}" is ${kindOf(v)}, not text`;
  if (v.length === 0) return `its "${field}" is empty`;
  if (v.length > MAX_ID)
    return `its "${field}" is ${v.length.toLocaleString('en')} characters long, over ${MAX_ID.toLocaleString('en')}`;
  return null;
}

function time(r: Raw, field: string, nullable = false): string | null {
  const v = r[field];
  if (nullable && v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > MAX_TIME)
    return `its "${field}" is ${show(v)}, not a time${nullable ? ' or null' : ''}`;
  return null;
}

function wholeNumber(r: Raw, field: string, required = true): string | null {
  const v = r[field];
  if (!required && v === undefined) return null;
  if (!Number.isSafeInteger(v) || (v as number) < 0)
    return `its "${field}" is ${show(v)}, not a whole number`;
  return null;
}

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'missing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string')
    return v.length > 40 ? `text of ${v.length} characters` : `the text ${JSON.stringify(v)}`;
  if (typeof v === 'object') return 'an object';
  return `the ${typeof v} ${String(v)}`;
}

/** A short form of a value for a message: never the whole of a huge one. */
function show(v: unknown): string {
  if (v === undefined) return 'missing';
  if (typeof v === 'string')
    return v.length > 40 ? `text of ${v.length} characters` : JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return kindOf(v);
}

const quoted = (v: unknown) =>
  typeof v === 'string' && v.length <= 80 ? JSON.stringify(v) : `(${kindOf(v)})`;
const describeKey = (key: unknown) =>
  typeof key === 'number'
    ? `#${key}`
    : typeof key === 'string' && key.length <= 80
      ? JSON.stringify(key)
      : 'its key';

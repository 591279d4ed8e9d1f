import type { ObjectState } from './objectState.ts';
import type { IndexedRow } from './processIndex.ts';

/** A delayed call kept scheduled: its due time and its invocation id (to cancel it by). */
export interface Slot {
  at: number;
  invocation: string;
}

/** The row a process noted last in the index, and when (noteRow.ts). */
export type Listed = IndexedRow & { at?: number };

/**
 * What a process object keeps besides its record, journal pages, kept context and call progress:
 * small values that most invocations read and many change, kept in one state key (`meta`).
 */
export interface ProcessMeta {
  /** Its order of creation (ProcessStore#created). */
  created?: number;
  /** Entries in its journal. */
  journalLength?: number;
  /** The delayed call to its tick, and the one to its calls handler. */
  tick?: Slot;
  call?: Slot;
  /** Its context is its own, kept in its state, not in a context object (processContexts.ts). */
  contextLocal?: true;
  /** Others write its context too: its timers go through the context's waker. */
  contextShared?: true;
  /** Whether it ever kept call progress (the `calls` key), so that one never read is not. */
  calls?: true;
  /** The event names the event index was told it waits for. */
  events?: string[];
  listed?: Listed;
}

/** The keys a process kept these in before `meta`, read once and cleared as it is written. */
const EARLIER_KEYS = [
  'created',
  'journalLength',
  'tickAt',
  'tickInvocation',
  'callAt',
  'callInvocation',
  'events',
  'listed',
] as const;

/**
 * A process's `meta` for one invocation: read once, changed in memory, and written once by
 * `flush` as the handler ends, where each of these was a state key of its own, each read (an
 * entry of Restate's journal, with its value) and written apart: a wake read nine keys and
 * wrote four of them.
 *
 * A write is not seen by other invocations until `flush`: the handler that changes these is
 * the object's one writer meanwhile, and what a reader sees of them (`rest`, `status`) is as of
 * the invocation before. A crash before `flush` loses nothing: Restate runs the invocation again
 * from its journal, which makes the same changes.
 */
export class ProcessMetaState {
  private value: ProcessMeta | undefined;
  /** The keys of before `meta` that held a value: cleared by the first flush. */
  private earlier: string[] = [];
  private dirty = false;

  constructor(private readonly state: ObjectState) {}

  /** The meta as this invocation knows it. */
  async read(): Promise<ProcessMeta> {
    if (this.value) return this.value;
    const kept = await this.state.get<ProcessMeta>('meta');
    this.value = kept ?? (await this.fromEarlierKeys());
    return this.value;
  }

  async get<K extends keyof ProcessMeta>(key: K): Promise<ProcessMeta[K]> {
    return (await this.read())[key];
  }

  /** Sets `key` (undefined: removes it); written at `flush`. */
  async set<K extends keyof ProcessMeta>(key: K, value: ProcessMeta[K]): Promise<void> {
    const meta = await this.read();
    if (JSON.stringify(meta[key]) === JSON.stringify(value)) return;
    if (value === undefined) delete meta[key];
    else meta[key] = value;
    this.dirty = true;
  }

  /** Writes what changed, once, as the handler ends. */
  flush(): void {
    if (!this.dirty || !this.value) return;
    this.state.set('meta', this.value);
    for (const key of this.earlier) this.state.clear(key);
    this.earlier = [];
    this.dirty = false;
  }

  /** A process stored before `meta`: its values read from their own keys, once. */
  private async fromEarlierKeys(): Promise<ProcessMeta> {
    // A process with no record has none of them: a start reads one key, not nine.
    if ((await this.state.get('record')) === null) return {};
    const read: Record<string, unknown> = {};
    for (const key of EARLIER_KEYS) {
      const value = await this.state.get(key);
      if (value === null) continue;
      read[key] = value;
      this.earlier.push(key);
    }
    const meta: ProcessMeta = {};
    if (typeof read.created === 'number') meta.created = read.created;
    if (typeof read.journalLength === 'number') meta.journalLength = read.journalLength;
    if (typeof read.tickAt === 'number' && typeof read.tickInvocation === 'string')
      meta.tick = { at: read.tickAt, invocation: read.tickInvocation };
    if (typeof read.callAt === 'number' && typeof read.callInvocation === 'string')
      meta.call = { at: read.callAt, invocation: read.callInvocation };
    if (Array.isArray(read.events)) meta.events = read.events as string[];
    if (read.listed && typeof read.listed === 'object') meta.listed = read.listed as Listed;
    // Call progress may be kept: read it when asked.
    meta.calls = true;
    // Written at the first flush, so that the earlier keys are cleared once.
    this.dirty = this.earlier.length > 0;
    return meta;
  }
}

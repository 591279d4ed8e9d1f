import type * as restate from '@restatedev/restate-sdk';
import type { ContextChange, ContextRecord } from '../supervisor/records.ts';
import type { StepCommit } from '../supervisor/store.ts';
import type { ContextAnswer } from './contextObject.ts';
import type { ObjectState } from './objectState.ts';
import type { ProcessMetaState } from './processMeta.ts';
import { CONTEXT } from './refs.ts';

/**
 * The contexts one invocation of a process reads and writes (ProcessStore's context half).
 *
 * A context a process makes (its start's, a fork's) is its own until another process shares it:
 * it is kept in the process's own state (`context`, and `change:<version>` per change), and a
 * step commits it with the snapshot, in the same invocation, with no call: only this process
 * writes it, in its exclusive handlers, so the compare-and-set is against its own state. Once
 * another process shares it (a start with shareContextWith, a fork), `share` moves it into a
 * context object first, and from then on every process that stands on it commits there, by
 * compare-and-set, as before (docs/restate.md, "How a step commits").
 *
 * For a context in an object, the process keeps its copy as of its last commit (`context`) and
 * steps on it: the compare-and-set refuses a stale one and answers the context as it is, so the
 * step runs again without another call. A shared handler's reads (status, reading) are live.
 */
export class ProcessContexts {
  /** Each context as last known in this invocation (read, committed, or answered); null: none. */
  private readonly known = new Map<string, ContextRecord | null>();
  /** Ids made in this invocation from Restate's deterministic random: nothing else holds them. */
  private readonly fresh = new Set<string>();

  constructor(
    private readonly ctx: restate.ObjectContext | restate.ObjectSharedContext,
    private readonly state: ObjectState,
    private readonly meta: ProcessMetaState,
    /** A shared handler's: it writes nothing and reads contexts in objects live. */
    private readonly shared: boolean,
  ) {}

  /** An id this invocation made (a new context's): no call is needed to know it is free. */
  madeId(id: string): void {
    this.fresh.add(id);
  }

  /** The process's own context, kept in its state, if `id` is it. */
  private async own(id: string): Promise<ContextRecord | undefined> {
    if ((await this.meta.get('contextLocal')) !== true) return undefined;
    const kept = await this.state.get<ContextRecord>('context');
    return kept?.id === id ? kept : undefined;
  }

  async get(id: string): Promise<ContextRecord | undefined> {
    const known = this.known.get(id);
    if (known !== undefined) return known ?? undefined;
    if (this.fresh.has(id)) return undefined;
    const kept = await this.state.get<ContextRecord>('context');
    // Its own context, or (an exclusive handler's) its copy of one in an object, to step on.
    if (kept?.id === id && (!this.shared || (await this.own(id)))) {
      this.known.set(id, kept);
      return kept;
    }
    const read = await this.ctx.objectClient(CONTEXT, id).get();
    this.known.set(id, read);
    return read ?? undefined;
  }

  /** Store.putContext: a context made (its own from now on), or a write from outside a step. */
  async put(
    record: ContextRecord,
    expectedVersion: number | null,
    change?: ContextChange,
  ): Promise<boolean> {
    const creates = expectedVersion === null && record.version === 0 && !change;
    if (creates && this.fresh.has(record.id) && !this.known.has(record.id)) {
      this.state.set('context', record);
      await this.meta.set('contextLocal', true);
      this.known.set(record.id, record);
      return true;
    }
    if (await this.own(record.id)) {
      const kept = (await this.own(record.id))!;
      if (kept.version !== expectedVersion) return false;
      this.writeOwn(record, change ? [change] : []);
      return true;
    }
    if (creates) {
      const created = await this.ctx.objectClient(CONTEXT, record.id).create(record.value);
      if (created) this.known.set(record.id, record);
      else this.known.delete(record.id);
      return created;
    }
    const answer = await this.ctx
      .objectClient(CONTEXT, record.id)
      .put({ record, expectedVersion, ...(change ? { change } : {}) });
    const ok = this.answered(record.id, answer, record);
    // Written from outside a step (setContext): the process's next wake steps on it as written.
    if (!this.shared && (await this.state.get<ContextRecord>('context'))?.id === record.id)
      await this.keep(record.id);
    return ok;
  }

  async changes(id: string): Promise<ContextChange[]> {
    const own = await this.own(id);
    if (!own) return this.ctx.objectClient(CONTEXT, id).changes();
    const out: ContextChange[] = [];
    for (let v = 1; v <= own.version; v++) {
      const change = await this.state.get<ContextChange>(`change:${v}`);
      if (change) out.push(change);
    }
    return out;
  }

  /**
   * A commit's context half (Store.commitStep): compare-and-set on the version, then the write.
   * `processContext`: the committing process's own context id, whose copy it keeps.
   */
  async commit(context: StepCommit['context'], processContext: string): Promise<boolean> {
    const { id, expectedVersion, write } = context;
    // The context as this commit leaves it, if made.
    const after: ContextRecord = write
      ? {
          id,
          version: expectedVersion + (write.versions ?? write.changes.length),
          value: write.value,
        }
      : { id, version: expectedVersion, value: await this.valueAt(id, expectedVersion) };
    const own = await this.own(id);
    if (own) {
      if (own.version !== expectedVersion) return false;
      if (write) this.writeOwn(after, write.changes);
      return true;
    }
    const answer: ContextAnswer | false = await this.ctx.objectClient(CONTEXT, id).commit({
      expectedVersion,
      ...(write ? { write } : {}),
    });
    const ok = this.answered(id, answer, after);
    if (id === processContext && !this.shared) {
      await this.keep(id);
      if (!ok) await this.meta.set('contextShared', true);
    }
    return ok;
  }

  /**
   * Moves the process's own context into a context object, with its changes, before another
   * process stands on it (a start sharing it, a fork reading or sharing it); `sharer`: another
   * process will write it too, so this one's timers go through the context's waker from now on.
   * Nothing happens for a context already in an object.
   */
  async share(sharer: boolean): Promise<void> {
    const kept = await this.state.get<ContextRecord>('context');
    if (kept && (await this.own(kept.id))) {
      const changes = await this.changes(kept.id);
      await this.ctx
        .objectClient(CONTEXT, kept.id)
        .adopt({ version: kept.version, value: kept.value, changes });
      for (const c of changes) this.state.clear(`change:${c.version}`);
      await this.meta.set('contextLocal', undefined);
    }
    if (sharer) await this.meta.set('contextShared', true);
  }

  /** Writes the process's own context at its new version, with its changes. */
  private writeOwn(record: ContextRecord, changes: ContextChange[]): void {
    this.state.set('context', record);
    for (const change of changes) this.state.set(`change:${change.version}`, change);
    this.known.set(record.id, record);
  }

  /**
   * What a context object's write answered, kept: on success the context as written; on a
   * conflict the context as it is (an endpoint from before said only false: it is read again).
   */
  private answered(id: string, answer: ContextAnswer | false, written: ContextRecord): boolean {
    if (answer === true) {
      if (written.value === undefined) this.known.delete(id);
      else this.known.set(id, written);
      return true;
    }
    if (answer === false) this.known.delete(id);
    else this.known.set(id, answer.now === null ? null : { id, ...answer.now });
    return false;
  }

  /** The context's value at `version` as this invocation knows it, or undefined. */
  private async valueAt(id: string, version: number): Promise<unknown> {
    const known = await this.get(id);
    return known?.version === version ? known.value : undefined;
  }

  /**
   * Keeps the process's copy of a context in an object as this invocation last knew it, for its
   * next wake to step on; a version is one value, so the same id and version need no write.
   */
  private async keep(id: string): Promise<void> {
    const known = this.known.get(id);
    const kept = await this.state.get<ContextRecord>('context');
    if (!known || known.value === undefined) {
      if (kept !== null) this.state.clear('context');
    } else if (kept?.id !== id || kept.version !== known.version) this.state.set('context', known);
  }
}

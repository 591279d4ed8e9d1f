import type * as restate from '@restatedev/restate-sdk';
import type { Flow } from '../../shared/schema.ts';
import type { CallProgress } from '../calls/callProgress.ts';
import type {
  ContextChange,
  ContextRecord,
  JournalEntry,
  ProcessRecord,
} from '../supervisor/records.ts';
import { loadFlowSet, scopeFlowIds } from '../supervisor/flowSet.ts';
import type {
  JournalPage,
  LoadedProcess,
  StepCommit,
  Store,
  ProcessSearch,
  WindowQuery,
} from '../supervisor/store.ts';
import { signatureOf } from '../engine/flowModel.ts';
import { FlowCache } from '../supervisor/flowCache.ts';
import { countsOf, pageOf, windowOf } from '../store/listWindow.ts';
import type { FlowRead } from './flowObject.ts';
import { ObjectState } from './objectState.ts';
import { ProcessContexts } from './processContexts.ts';
import { ProcessMetaState } from './processMeta.ts';
import { PROCESS } from './processRef.ts';
import { FLOW, REGISTRY, REGISTRY_KEY } from './refs.ts';

/** Journal entries per state key: an append reads and writes one page, not the whole journal. */
const JOURNAL_PAGE = 64;

/**
 * One object per flow content for every invocation of this endpoint, so that what is built per
 * flow object (the engine's model, compiled expressions, the signature) is built once, not on
 * every wake. It only swaps what a call read for an object of the same content: which calls
 * an invocation makes never depends on it, so a replay makes the same ones.
 */
const FLOWS = new FlowCache();

/**
 * The supervisor's Store, seen from inside one process's Virtual Object handler: this process's
 * record and journal are the object's own state; contexts, flows and other processes are other
 * objects, reached by calls that Restate journals. So the supervisor's own code (start, wake,
 * commit, stop, resume, retry, resolve) runs unchanged inside a handler, and on a retry Restate
 * replays each call's recorded result instead of making it again: a committed step is never
 * committed twice.
 *
 * A process sees only itself (`listProcesses`, `dueProcesses` and every other listing): who
 * waits for an event is the event index's to know, and its own timer is the only one its
 * handler fires.
 *
 * One store serves one invocation (docs/restate.md, "What one wake costs"): every call and every
 * state read is an entry of Restate's log, so each is made once. Its own state is read through
 * ObjectState; each flow is read once (the flow object's `read`, which also says whether a start
 * must keep its version), and a version the process stands on is the flow just read when the
 * signatures agree; a context is read once and then known from what this invocation committed
 * or was answered. The process keeps its context as of its last commit in its own state
 * (`context`), and a wake steps on that: the commit's compare-and-set on the version refuses it
 * if anyone wrote since, and its answer is the context as it is, for the step to run again on.
 * A context this invocation made (a start's) is created with its first commit, in one call; the
 * start's record is written once it exists (`finish` sends it if nothing committed).
 */
export class ProcessStore implements Store {
  readonly keepsJournal = true;
  /** This object's state, each key read once per invocation. */
  readonly state: ObjectState;
  /** Its small values (order of creation, journal length, scheduled calls…), in one key. */
  readonly meta: ProcessMetaState;
  /** Each flow as read in this invocation, by id. */
  private readonly flows = new Map<string, Promise<FlowRead>>();
  /** Each version read from a flow object in this invocation, by flow id and signature. */
  private readonly versions = new Map<string, Promise<Flow | null>>();
  /** Its contexts: its own, kept in its state, and those in context objects. */
  readonly contexts: ProcessContexts;

  /** Whether this is a shared handler's store: it writes nothing and reads contexts live. */
  private readonly shared: boolean;

  /**
   * `shared`: the store of a shared handler (a reader: status, reading, journal), which is shown
   * contexts as they are, never the one the process kept. (The SDK's context object of a shared
   * handler has the same methods as an exclusive one's, so it cannot be told apart by them.)
   */
  /** A new process's order of creation (`created`). */
  private readonly createdAt: () => number;

  /**
   * `createdAt`: a new process's order of creation, made in its own invocation (its time, with a
   * random tie-break): see `created`.
   */
  constructor(
    private readonly ctx: restate.ObjectContext | restate.ObjectSharedContext,
    options: { shared?: boolean; state?: ObjectState; createdAt?: () => number } = {},
  ) {
    this.shared = options.shared ?? false;
    this.state = options.state ?? new ObjectState(ctx);
    this.meta = new ProcessMetaState(this.state);
    this.contexts = new ProcessContexts(ctx, this.state, this.meta, this.shared);
    this.createdAt =
      options.createdAt ??
      (() => {
        throw new Error('this store was given no way to order a process it creates');
      });
  }

  private get self(): string {
    return this.ctx.key;
  }

  private get writes(): boolean {
    return !this.shared;
  }

  /** An id this invocation made (a new context's): no call is needed to know it is free. */
  madeId(id: string): void {
    this.contexts.madeId(id);
  }

  /** Writes the meta this invocation changed: the last thing a handler does. */
  flush(): void {
    this.meta.flush();
  }

  private readFlow(id: string): Promise<FlowRead> {
    let read = this.flows.get(id);
    if (!read) {
      read = this.ctx
        .objectClient(FLOW, id)
        .read()
        .then((r) => ({ flow: r.flow === null ? null : FLOWS.canonical(r.flow)!, kept: r.kept }));
      this.flows.set(id, read);
    }
    return read;
  }

  async getFlow(id: string): Promise<Flow | undefined> {
    return (await this.readFlow(id)).flow ?? undefined;
  }
  async putFlow(flow: Flow): Promise<void> {
    await this.ctx.objectClient(FLOW, flow.id).put(flow);
    this.flows.delete(flow.id);
  }
  async getFlowVersion(id: string, signature: string): Promise<Flow | undefined> {
    // The version a process stands on is, almost always, the flow as deployed now.
    const current = (await this.readFlow(id)).flow;
    if (current && signatureOf(current) === signature) return current;
    const key = `${id}\u0000${signature}`;
    let version = this.versions.get(key);
    if (!version) {
      version = this.ctx.objectClient(FLOW, id).version(signature);
      this.versions.set(key, version);
    }
    return (await version) ?? undefined;
  }
  async putFlowVersion(flow: Flow, signature: string): Promise<void> {
    const read = await this.readFlow(flow.id);
    if (read.kept && read.flow && signatureOf(read.flow) === signature) return;
    await this.ctx.objectClient(FLOW, flow.id).keepVersion({ flow, signature });
  }

  getContext(id: string): Promise<ContextRecord | undefined> {
    return this.contexts.get(id);
  }
  putContext(
    record: ContextRecord,
    expectedVersion: number | null,
    change?: ContextChange,
  ): Promise<boolean> {
    return this.contexts.put(record, expectedVersion, change);
  }
  contextChanges(contextId: string): Promise<ContextChange[]> {
    return this.contexts.changes(contextId);
  }

  async getProcess(id: string): Promise<ProcessRecord | undefined> {
    if (id !== this.self) return (await this.ctx.objectClient(PROCESS, id).record()) ?? undefined;
    return (await this.state.get<ProcessRecord>('record')) ?? undefined;
  }

  async putProcess(record: ProcessRecord, journal: JournalEntry[] = []): Promise<void> {
    if (record.id !== this.self)
      throw new Error(`process "${this.self}" cannot write process "${record.id}"`);
    this.state.set('record', { ...record, created: await this.created() });
    await this.append(journal);
  }

  /**
   * The process's order of creation, made once and kept: the time of the invocation that made
   * it, in thousandths of a millisecond, with a random tie-break (Restate's, so a replay makes the
   * same). Processes made before were numbered by the registry (0, 1, 2…), so they stay first.
   * The registry is told one way, for `flow list`: a start waits on no object that every start
   * goes through (it did, and at 32 starts at once that queue was the start's longest wait).
   */
  private async created(): Promise<number> {
    const known = await this.meta.get('created');
    if (known !== undefined) return known;
    const created = this.createdAt();
    this.ctx.objectSendClient(REGISTRY, REGISTRY_KEY).register(this.self);
    await this.meta.set('created', created);
    return created;
  }

  private async append(entries: JournalEntry[]): Promise<void> {
    if (entries.length === 0) return;
    let length = (await this.meta.get('journalLength')) ?? 0;
    let page = Math.floor(length / JOURNAL_PAGE);
    let current = (await this.state.get<JournalEntry[]>(`journal:${page}`)) ?? [];
    for (const entry of entries) {
      if (Math.floor(length / JOURNAL_PAGE) !== page) {
        this.state.set(`journal:${page}`, current);
        page++;
        current = [];
      }
      current.push(entry);
      length++;
    }
    this.state.set(`journal:${page}`, current);
    await this.meta.set('journalLength', length);
  }

  async loadProcess(id: string): Promise<LoadedProcess | undefined> {
    const record = await this.getProcess(id);
    if (!record) return undefined;
    const roots = [record.flow, ...scopeFlowIds(record.snapshot.scope)];
    const flows = await loadFlowSet(roots, (f) => this.getFlow(f));
    return { record, flows, context: await this.getContext(record.contextId) };
  }

  async listProcesses(): Promise<ProcessRecord[]> {
    const record = await this.getProcess(this.self);
    return record ? [record] : [];
  }

  async runningProcesses(): Promise<ProcessRecord[]> {
    return (await this.listProcesses()).filter((p) => p.status === 'running');
  }

  async processPage(afterCreated: number | null, limit: number): Promise<ProcessRecord[]> {
    const all = await this.listProcesses();
    return all.filter((p) => afterCreated === null || p.created > afterCreated).slice(0, limit);
  }

  async processWindow(query: WindowQuery): Promise<ProcessRecord[]> {
    return windowOf(await this.listProcesses(), query);
  }

  async processNames(): Promise<{ id: string; flow: string }[]> {
    return (await this.listProcesses()).map((p) => ({ id: p.id, flow: p.flow }));
  }

  async countProcesses(flow?: string, search?: ProcessSearch) {
    return countsOf(await this.listProcesses(), flow, search);
  }

  async dueProcesses(until: number): Promise<ProcessRecord[]> {
    const record = await this.getProcess(this.self);
    return record && record.status === 'waiting' && record.due !== null && record.due <= until
      ? [record]
      : [];
  }

  async listDue(upTo: number, limit?: number): Promise<ProcessRecord[]> {
    return (await this.dueProcesses(upTo)).slice(0, limit);
  }

  async nextDueAt(): Promise<number | null> {
    return (await this.dueProcesses(Infinity))[0]?.due ?? null;
  }

  async waitersFor(): Promise<ProcessRecord[]> {
    // Itself, if waiting: the supervisor asks its snapshot which waits take the event.
    const record = await this.getProcess(this.self);
    return record?.status === 'waiting' ? [record] : [];
  }

  async lastCreated(): Promise<number | null> {
    return (await this.getProcess(this.self))?.created ?? null;
  }

  /**
   * The context's compare-and-set first (the context object), then the snapshot and journal
   * here. Once the context call returned true, this invocation's journal holds that answer, so a
   * retry after a crash replays it and writes the snapshot: the step commits whole, once.
   */
  async commitStep({ process, context, journal }: StepCommit): Promise<boolean> {
    if (!(await this.contexts.commit(context, process.contextId))) return false;
    await this.putProcess(process, journal);
    return true;
  }

  async journalPage(processId: string, limit: number): Promise<JournalPage> {
    return pageOf(await this.journal(processId), limit);
  }

  async journal(processId: string): Promise<JournalEntry[]> {
    if (processId !== this.self) return this.ctx.objectClient(PROCESS, processId).journal();
    const length = (await this.meta.get('journalLength')) ?? 0;
    const out: JournalEntry[] = [];
    for (let page = 0; page * JOURNAL_PAGE < length; page++)
      out.push(...((await this.state.get<JournalEntry[]>(`journal:${page}`)) ?? []));
    // Numbered by position, as the other stores number theirs (`seq`): a server keeps the whole
    // journal, so an entry's position never changes, and the workbench's "as of this entry" and
    // its fork find entries by it. Numbered as read, so journals stored before are numbered too.
    return out.map((entry, i) => ({ ...entry, seq: i + 1 }));
  }

  /**
   * Call progress is this process's own state, under one key (`calls`, by wait seq): it is only
   * ever read and written by the process's own handler, which sends the attempts as journaled
   * side effects (callAttempts.ts) and keeps here how many it began and when the next is due.
   */
  async listCallProgress(processId: string): Promise<CallProgress[]> {
    if (processId !== this.self || !(await this.meta.get('calls'))) return [];
    const rows = (await this.state.get<Record<string, CallProgress>>('calls')) ?? {};
    return Object.values(rows).sort((a, b) => a.seq - b.seq);
  }

  async putCallProgress(processId: string, progress: CallProgress): Promise<void> {
    this.ownCalls(processId);
    const rows = (await this.state.get<Record<string, CallProgress>>('calls')) ?? {};
    rows[String(progress.seq)] = progress;
    this.state.set('calls', rows);
    await this.meta.set('calls', true);
  }

  async deleteCallProgress(processId: string, seq: number): Promise<void> {
    this.ownCalls(processId);
    if (!(await this.meta.get('calls'))) return;
    const rows = (await this.state.get<Record<string, CallProgress>>('calls')) ?? {};
    if (!(String(seq) in rows)) return;
    delete rows[String(seq)];
    if (Object.keys(rows).length === 0) this.state.clear('calls');
    else this.state.set('calls', rows);
  }

  private ownCalls(processId: string): void {
    if (processId !== this.self)
      throw new Error(`process "${this.self}" cannot write the calls of process "${processId}"`);
  }
}

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
import { countsOf, pageOf, windowOf } from '../store/listWindow.ts';
import { PROCESS } from './processRef.ts';
import { CONTEXT, FLOW, REGISTRY, REGISTRY_KEY } from './refs.ts';

/** Journal entries per state key: an append reads and writes one page, not the whole journal. */
const JOURNAL_PAGE = 64;

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
 */
export class ProcessStore implements Store {
  readonly keepsJournal = true;

  constructor(private readonly ctx: restate.ObjectContext | restate.ObjectSharedContext) {}

  private get self(): string {
    return this.ctx.key;
  }

  private writable(): restate.ObjectContext {
    if (!('set' in this.ctx)) throw new Error('a shared handler cannot write a process');
    return this.ctx as restate.ObjectContext;
  }

  async getFlow(id: string): Promise<Flow | undefined> {
    return (await this.ctx.objectClient(FLOW, id).current()) ?? undefined;
  }
  async putFlow(flow: Flow): Promise<void> {
    await this.ctx.objectClient(FLOW, flow.id).put(flow);
  }
  async getFlowVersion(id: string, signature: string): Promise<Flow | undefined> {
    return (await this.ctx.objectClient(FLOW, id).version(signature)) ?? undefined;
  }
  async putFlowVersion(flow: Flow, signature: string): Promise<void> {
    await this.ctx.objectClient(FLOW, flow.id).keepVersion({ flow, signature });
  }

  async getContext(id: string): Promise<ContextRecord | undefined> {
    return (await this.ctx.objectClient(CONTEXT, id).get()) ?? undefined;
  }
  async putContext(
    record: ContextRecord,
    expectedVersion: number | null,
    change?: ContextChange,
  ): Promise<boolean> {
    if (expectedVersion === null && record.version === 0 && !change)
      return this.ctx.objectClient(CONTEXT, record.id).create(record.value);
    return this.ctx
      .objectClient(CONTEXT, record.id)
      .put({ record, expectedVersion, ...(change ? { change } : {}) });
  }
  contextChanges(contextId: string): Promise<ContextChange[]> {
    return this.ctx.objectClient(CONTEXT, contextId).changes();
  }

  async getProcess(id: string): Promise<ProcessRecord | undefined> {
    if (id === this.self) return (await this.ctx.get<ProcessRecord>('record')) ?? undefined;
    return (await this.ctx.objectClient(PROCESS, id).record()) ?? undefined;
  }

  async putProcess(record: ProcessRecord, journal: JournalEntry[] = []): Promise<void> {
    if (record.id !== this.self)
      throw new Error(`process "${this.self}" cannot write process "${record.id}"`);
    const ctx = this.writable();
    ctx.set('record', { ...record, created: await this.created() });
    await this.append(journal);
  }

  /** The registry's creation number, asked once per process and kept. */
  private async created(): Promise<number> {
    const ctx = this.writable();
    const known = await ctx.get<number>('created');
    if (known !== null) return known;
    const created = await ctx.objectClient(REGISTRY, REGISTRY_KEY).register(this.self);
    ctx.set('created', created);
    return created;
  }

  private async append(entries: JournalEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const ctx = this.writable();
    let length = (await ctx.get<number>('journalLength')) ?? 0;
    let page = Math.floor(length / JOURNAL_PAGE);
    let current = (await ctx.get<JournalEntry[]>(`journal:${page}`)) ?? [];
    for (const entry of entries) {
      if (Math.floor(length / JOURNAL_PAGE) !== page) {
        ctx.set(`journal:${page}`, current);
        page++;
        current = [];
      }
      // JSON state: what survives the round trip is what is stored.
      current.push(JSON.parse(JSON.stringify(entry)) as JournalEntry);
      length++;
    }
    ctx.set(`journal:${page}`, current);
    ctx.set('journalLength', length);
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
    const ok = await this.ctx.objectClient(CONTEXT, context.id).commit({
      expectedVersion: context.expectedVersion,
      ...(context.write ? { write: context.write } : {}),
    });
    if (!ok) return false;
    await this.putProcess(process, journal);
    return true;
  }

  async journalPage(processId: string, limit: number): Promise<JournalPage> {
    return pageOf(await this.journal(processId), limit);
  }

  async journal(processId: string): Promise<JournalEntry[]> {
    if (processId !== this.self) return this.ctx.objectClient(PROCESS, processId).journal();
    const length = (await this.ctx.get<number>('journalLength')) ?? 0;
    const out: JournalEntry[] = [];
    for (let page = 0; page * JOURNAL_PAGE < length; page++)
      out.push(...((await this.ctx.get<JournalEntry[]>(`journal:${page}`)) ?? []));
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
    if (processId !== this.self) return [];
    const rows = (await this.ctx.get<Record<string, CallProgress>>('calls')) ?? {};
    return Object.values(rows).sort((a, b) => a.seq - b.seq);
  }

  async putCallProgress(processId: string, progress: CallProgress): Promise<void> {
    this.ownCalls(processId);
    const ctx = this.writable();
    const rows = (await ctx.get<Record<string, CallProgress>>('calls')) ?? {};
    // JSON state: what survives the round trip is what is stored.
    rows[String(progress.seq)] = JSON.parse(JSON.stringify(progress)) as CallProgress;
    ctx.set('calls', rows);
  }

  async deleteCallProgress(processId: string, seq: number): Promise<void> {
    this.ownCalls(processId);
    const ctx = this.writable();
    const rows = (await ctx.get<Record<string, CallProgress>>('calls')) ?? {};
    if (!(String(seq) in rows)) return;
    delete rows[String(seq)];
    if (Object.keys(rows).length === 0) ctx.clear('calls');
    else ctx.set('calls', rows);
  }

  private ownCalls(processId: string): void {
    if (processId !== this.self)
      throw new Error(`process "${this.self}" cannot write the calls of process "${processId}"`);
  }
}

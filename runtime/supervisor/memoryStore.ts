import type { Flow } from '../../shared/schema.ts';
import type { ContextChange, ContextRecord, JournalEntry, ProcessRecord } from './records.ts';
import type { StepCommit, Store } from './store.ts';

/**
 * A store in memory. Records are copied in and out, as a database would, so that no caller can
 * change what is stored by holding on to an object.
 */
export class MemoryStore implements Store {
  private flows = new Map<string, Flow>();
  private versions = new Map<string, Flow>();
  private contexts = new Map<string, ContextRecord>();
  private changes = new Map<string, ContextChange[]>();
  private processes = new Map<string, ProcessRecord>();
  private journals = new Map<string, JournalEntry[]>();

  async getFlow(id: string) {
    return copy(this.flows.get(id));
  }
  async putFlow(flow: Flow) {
    this.flows.set(flow.id, copy(flow));
  }
  async getFlowVersion(id: string, signature: string) {
    return copy(this.versions.get(`${id}\u0000${signature}`));
  }
  async putFlowVersion(flow: Flow, signature: string) {
    this.versions.set(`${flow.id}\u0000${signature}`, copy(flow));
  }

  async getContext(id: string) {
    return copy(this.contexts.get(id));
  }
  async putContext(record: ContextRecord, expectedVersion: number | null, change?: ContextChange) {
    const current = this.contexts.get(record.id);
    if ((current?.version ?? null) !== expectedVersion) return false;
    this.contexts.set(record.id, copy(record));
    if (change) this.addChange(change);
    return true;
  }
  async contextChanges(contextId: string) {
    return copy(this.changes.get(contextId) ?? []);
  }

  async getProcess(id: string) {
    return copy(this.processes.get(id));
  }
  async putProcess(record: ProcessRecord, journal: JournalEntry[] = []) {
    this.processes.set(record.id, copy(record));
    this.append(journal);
  }
  async listProcesses() {
    return [...this.processes.values()].map(copy).sort((a, b) => a.created - b.created);
  }

  async commitStep({ process, context, journal }: StepCommit) {
    const current = this.contexts.get(context.id);
    if (current?.version !== context.expectedVersion) return false;
    if (context.write) {
      this.contexts.set(context.id, {
        id: context.id,
        version: context.expectedVersion + 1,
        value: copy(context.write.value),
      });
      this.addChange(context.write.change);
    }
    this.processes.set(process.id, copy(process));
    this.append(journal);
    return true;
  }
  async journal(processId: string) {
    return copy(this.journals.get(processId) ?? []);
  }

  private append(entries: JournalEntry[]) {
    for (const e of entries) {
      const list = this.journals.get(e.process) ?? [];
      list.push(copy(e));
      this.journals.set(e.process, list);
    }
  }
  private addChange(change: ContextChange) {
    const list = this.changes.get(change.contextId) ?? [];
    list.push(copy(change));
    this.changes.set(change.contextId, list);
  }
}

function copy<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}

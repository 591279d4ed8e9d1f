import { seedOf } from '../expr/seeded.ts';
import { startSnapshot } from '../engine/step.ts';
import type { FlowReader, Pause } from './flowReader.ts';
import { signaturesById } from './flowSet.ts';
import { contextProblem } from './inputChecks.ts';
import type { ProcessLock } from './processLock.ts';
import type { ProcessRunner } from './processRunner.ts';
import type { ProcessRecord } from './records.ts';
import type { Store } from './store.ts';
import { assertRunnable, SupervisorError } from './supervisorError.ts';

/** How a process starts (see `Supervisor.start`). */
export interface StartOptions {
  id?: string;
  context?: unknown;
  shareContextWith?: string;
  /** Stopped before its first node, for a designer to step through it. */
  paused?: boolean;
  /** false: store the process, running, and return; the caller drives it (`runAll`). */
  drive?: boolean;
}

/** What starting a process stands on. */
export interface StartParts {
  store: Store;
  flows: FlowReader;
  lock: ProcessLock;
  runner: ProcessRunner;
  newId: (kind: 'process' | 'context') => string;
  /** The pause between the parts of a start's analysis of a new flow (`betweenSteps`). */
  pause: Pause | undefined;
}

/** Starts processes: checks the request, stores the context, the versions and the record. */
export class ProcessStarts {
  private created = 0;
  private createdRead = false;

  constructor(private readonly parts: StartParts) {}

  /** Starts a process of `flowId` on a new context, or bound to the context of another process. */
  start(flowId: string, options: StartOptions = {}): Promise<ProcessRecord> {
    const id = options.id ?? this.parts.newId('process');
    return this.parts.lock.locked(id, () => this.create(id, flowId, options));
  }

  private async create(id: string, flowId: string, options: StartOptions): Promise<ProcessRecord> {
    const { store, runner, newId } = this.parts;
    if (options.context !== undefined && options.shareContextWith !== undefined) {
      throw new SupervisorError('a process starts on a new context or shares one, not both');
    }
    const problem =
      options.context === undefined
        ? undefined
        : contextProblem('the first context', options.context);
    if (problem) throw new SupervisorError(problem);
    if (await store.getProcess(id)) throw new SupervisorError(`a process "${id}" already exists`);
    const flows = await this.parts.flows.current([flowId]);
    const flow = flows.get(flowId);
    if (!flow) throw new SupervisorError(`there is no flow "${flowId}" in the workspace`);
    await this.parts.flows.analyse(flows, this.parts.pause);
    assertRunnable(flows);
    let contextId: string;
    // The context as found, journalled with the start so that a past one can be rebuilt.
    let found: { version: number; value: unknown } | undefined;
    if (options.shareContextWith !== undefined) {
      const other = await store.getProcess(options.shareContextWith);
      if (!other)
        throw new SupervisorError(
          `there is no process "${options.shareContextWith}" to share a context with`,
        );
      contextId = other.contextId;
      const shared = await store.getContext(contextId);
      if (shared) found = { version: shared.version, value: shared.value };
    } else {
      // Ids from an earlier run of the same generator may be taken (a crash between writes).
      do contextId = newId('context');
      while (await store.getContext(contextId));
      const value = options.context === undefined ? {} : structuredClone(options.context);
      if (!(await store.putContext({ id: contextId, version: 0, value }, null))) {
        throw new SupervisorError(`a context "${contextId}" already exists`);
      }
      found = { version: 0, value };
    }
    const versions = signaturesById(flows);
    await this.parts.flows.storeVersions(flows, versions);
    // The order of creation is read from the store once, not at every start: a start then costs
    // the same however many processes exist. (Another tab's starts may share a number; the
    // order among them is then their due times'.)
    if (!this.createdRead) {
      const last = await store.lastCreated();
      if (last !== null) this.created = Math.max(this.created, last + 1);
      this.createdRead = true;
    }
    const record: ProcessRecord = {
      id,
      flow: flowId,
      contextId,
      status: 'running',
      snapshot: startSnapshot(flow, seedOf(id)),
      due: null,
      versions,
      pinned: false,
      error: null,
      changes: [],
      pendingWake: null,
      created: this.created++,
    };
    // Paused: stopped before its first node, for a designer to step through it.
    const first = options.paused
      ? { ...record, status: 'stopped' as const, stoppedFrom: 'running' as const }
      : record;
    await store.putProcess(first, [
      runner.stamp(
        id,
        { type: 'started', flow: flowId, contextId, ...(found && { context: found }) },
        first.snapshot,
      ),
    ]);
    // Driven on the record just stored and the flows just read and checked: reading a flow
    // again costs what its size is (a copy out of the database and a comparison of its text).
    return options.paused || options.drive === false ? first : runner.drive(id, first, flows);
  }
}

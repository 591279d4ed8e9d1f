import { flowLoops } from '../../shared/loops.ts';
import type { Flow } from '../../shared/schema.ts';
import { flowModel, signatureOf } from '../engine/flowModel.ts';
import { signaturesOf } from '../engine/step.ts';
import { FlowCache } from './flowCache.ts';
import { loadFlowSet, scopeFlowIds } from './flowSet.ts';
import type { ProcessRecord } from './records.ts';
import type { Store } from './store.ts';
import { problemsOf } from './supervisorError.ts';

/** Reads a flow by id for one operation. */
export type ReadFlow = (id: string) => Promise<Flow | undefined>;

/** A turn of the event loop now and then (the supervisor's `betweenSteps`). */
export type Pause = () => Promise<void> | void;

/**
 * How the supervisor reads flows: the workspace's current ones (each read from the store once
 * per operation, always, since another tab may have saved it) and the versions a process stands
 * on, each as the one object kept for its content (flowCache.ts).
 */
export class FlowReader {
  private readonly cache = new FlowCache();

  constructor(private readonly store: Store) {}

  /** A reader of the workspace's flows for one operation, seeded with flows already read. */
  reader(known?: Map<string, Flow>): ReadFlow {
    const read = new Map<string, Promise<Flow | undefined>>();
    for (const [id, f] of known ?? []) read.set(id, Promise.resolve(this.cache.canonical(f)));
    return (id) => {
      let flow = read.get(id);
      if (!flow) {
        flow = this.store.getFlow(id).then((f) => this.cache.canonical(f));
        read.set(id, flow);
      }
      return flow;
    };
  }

  /**
   * The workspace's flows `roots` run, sub-flows included, as stored now; each the object kept
   * for its content, as a wake reads them, so that a start checks a flow and builds its model
   * and signature once per content, not once per start.
   */
  current(roots: string[]): Promise<Map<string, Flow>> {
    return loadFlowSet(roots, (f) =>
      this.store.getFlow(f).then((flow) => this.cache.canonical(flow)),
    );
  }

  /** The flows a process runs on: its pinned versions after `keep`, else the workspace's. */
  async flowsFor(record: ProcessRecord, read = this.reader()): Promise<Map<string, Flow>> {
    const roots = [record.flow, ...scopeFlowIds(record.snapshot.scope)];
    if (!record.pinned) return loadFlowSet(roots, read);
    return loadFlowSet(roots, async (f) => {
      const signature = record.versions[f];
      const version =
        signature === undefined
          ? undefined
          : await this.cache.version(f, signature, () => this.store.getFlowVersion(f, signature));
      // A version missing from the store (a database from before versions were kept) falls back
      // to the current flow; a wake then compares signatures as always.
      return version ?? read(f);
    });
  }

  /**
   * The flows a process fell asleep on (the versions it records), whatever the workspace holds
   * now: its waits, triggers and timers are read from these, and a wake then compares them.
   */
  sleptOn(record: ProcessRecord): Promise<Map<string, Flow>> {
    return this.flowsFor({ ...record, pinned: true });
  }

  /** Whether every flow a process runs is still the version it started on (or it is pinned). */
  async sameFlows(record: ProcessRecord, read: ReadFlow): Promise<boolean> {
    if (record.pinned) return true;
    for (const scope of signaturesOf(record.snapshot)) {
      const current = await read(scope.flow);
      if (!current || this.cache.signature(current) !== scope.signature) return false;
    }
    return true;
  }

  /** A flow's signature, computed once per flow object. */
  signature(flow: Flow): string {
    return this.cache.signature(flow);
  }

  /** Flow objects whose analyses are made (`analyse`). */
  private readonly analysed = new WeakSet<Flow>();

  /**
   * Makes what a start needs of each flow, once per flow object, each part in a task of its own
   * when `pause` takes a turn of the event loop (the app's worker's `betweenSteps`): its loops,
   * its check (`problemsOf`), its signature and the engine's model. Each is kept per flow object
   * where it is made, so the start that follows finds them made. A flow of 10,000 nodes took
   * them all in one task of a quarter of a second on the bench page (issue 29.5).
   */
  async analyse(flows: ReadonlyMap<string, Flow>, pause: Pause | undefined): Promise<void> {
    for (const f of flows.values()) {
      if (this.analysed.has(f)) continue;
      // Apart from the task that read it (a large flow's copy out of the database is one).
      await pause?.();
      flowLoops(f);
      await pause?.();
      const runnable = problemsOf(f).length === 0;
      await pause?.();
      if (runnable) {
        signatureOf(f);
        await pause?.();
        flowModel(f);
        await pause?.();
      }
      this.analysed.add(f);
    }
  }

  /** Flow objects this reader stored as versions: their content is stored under their signature. */
  private readonly stored = new WeakSet<Flow>();

  /**
   * Stores each of `flows` as the version a process stands on (`Store.putFlowVersion`, under its
   * signature in `versions`), but for a flow object stored so already: a version's record is
   * never deleted, and one object has one content (flowCache.ts), so writing it again wrote
   * the same record. A start wrote its flow again each time, a flow of 10,000 nodes copied into
   * the database in one task of its own.
   */
  async storeVersions(flows: ReadonlyMap<string, Flow>, versions: Record<string, string>) {
    for (const f of flows.values()) {
      if (this.stored.has(f)) continue;
      await this.store.putFlowVersion(f, versions[f.id]!);
      this.stored.add(f);
    }
  }
}

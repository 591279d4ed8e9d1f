import { applyWrites, type ContextWrite } from '../../shared/contextWrite.ts';
import type { Flow, Trigger } from '../../shared/schema.ts';
import { flowModel } from './flowModel.ts';
import type { EngineJournalEntry } from './journal.ts';
import { NodeFailure, Run, type EngineEnv } from './run.ts';
import type { Generation, Snapshot } from './snapshot.ts';

export type EngineStatus = 'running' | 'waiting' | 'done' | 'failed';

/** What one step returns: the new snapshot, the node's writes, and what happened. */
export interface StepResult {
  snapshot: Snapshot;
  /** The step's writes to the context, in order; they reach the live context together. */
  writes: ContextWrite[];
  journal: EngineJournalEntry[];
  status: EngineStatus;
  /** The waits the process stands at after the step. */
  waits: WaitView[];
}

/** A wait the process stands at, for the supervisor to time, subscribe or show as a form. */
export interface WaitView {
  seq: number;
  /** The continue-after node's path (`sub/approve`). */
  path: string;
  node: string;
  flow: string;
  gen: Generation;
  since: number;
  triggers: readonly Trigger[];
}

/** A new process of `flow`, ready at its start node. */
export function startSnapshot(flow: Flow): Snapshot {
  const model = flowModel(flow);
  const start = flow.nodes.find((n) => n.kind === 'start');
  const ready = start ? [{ node: start.id, gen: model.heads(start.id).map(() => 0), seq: 0 }] : [];
  return {
    format: 'snapshot/1',
    seq: 1,
    visits: {},
    passes: {},
    scope: {
      flow: flow.id,
      signature: model.signature,
      ready,
      waits: [],
      joins: [],
      ran: [],
      children: [],
    },
  };
}

/** Where a snapshot stands: failed, done, with a node ready, or asleep. */
export function statusOf(snapshot: Snapshot): EngineStatus {
  if (snapshot.failed) return 'failed';
  if (snapshot.done) return 'done';
  const anyReady = (s: Snapshot['scope']): boolean =>
    s.ready.length > 0 || s.children.some((c) => anyReady(c.scope));
  return anyReady(snapshot.scope) ? 'running' : 'waiting';
}

async function guarded(
  snapshot: Snapshot,
  context: unknown,
  env: EngineEnv,
  act: (run: Run) => Promise<unknown>,
) {
  if (snapshot.failed) {
    throw new Error(
      `the process failed at "${snapshot.failed.path}"; retry it before running it on`,
    );
  }
  try {
    const run = new Run(snapshot, context, env);
    await act(run);
    return {
      snapshot: run.snapshot,
      writes: run.writes,
      journal: run.journal,
      status: statusOf(run.snapshot),
      waits: waitsWithTriggers(run.snapshot, env.flows),
    };
  } catch (e) {
    if (!(e instanceof NodeFailure)) throw e;
    // A failed node writes nothing and moves nothing: the snapshot is the one before the step.
    const failed: Snapshot = { ...snapshot, failed: { path: e.path, message: e.message } };
    const journal: EngineJournalEntry[] = [{ type: 'failed', node: e.path, message: e.message }];
    return {
      snapshot: failed,
      writes: [],
      journal,
      status: 'failed' as const,
      waits: waitsWithTriggers(snapshot, env.flows),
    };
  }
}

/** Runs the node that became ready first; a snapshot with nothing ready comes back as it was. */
export function step(snapshot: Snapshot, context: unknown, env: EngineEnv): Promise<StepResult> {
  return guarded(snapshot, context, env, (run) => run.runNext());
}

/** Fires one trigger of the wait numbered `seq`; the continue-after completes (FORMAT.md §1). */
export function fire(
  snapshot: Snapshot,
  context: unknown,
  env: EngineEnv,
  wake: { seq: number; trigger: string; payload?: unknown },
): Promise<StepResult> {
  return guarded(snapshot, context, env, (run) => run.fire(wake.seq, wake.trigger, wake.payload));
}

/** The snapshot without its failure, so that `retry` runs the failed node again. */
export function clearFailure(snapshot: Snapshot): Snapshot {
  const { failed: _failed, ...rest } = snapshot;
  return rest;
}

/**
 * Steps until the process stops (asleep, done or failed), applying each step's writes to its
 * own copy of the context. For tests and tools; the supervisor steps one at a time so that it
 * can commit each step on its own.
 */
export async function runToStop(
  snapshot: Snapshot,
  context: unknown,
  env: EngineEnv,
): Promise<StepResult & { context: unknown }> {
  let current: StepResult = {
    snapshot,
    writes: [],
    journal: [],
    status: statusOf(snapshot),
    waits: waitsWithTriggers(snapshot, env.flows),
  };
  const journal: EngineJournalEntry[] = [];
  const writes: ContextWrite[] = [];
  while (current.status === 'running') {
    current = await step(current.snapshot, context, env);
    context = applyWrites(context, current.writes);
    journal.push(...current.journal);
    writes.push(...current.writes);
  }
  return { ...current, journal, writes, context };
}

/** Every wait of the process, nested ones named by path, with the triggers of its node. */
export function waitsWithTriggers(snapshot: Snapshot, flows: EngineEnv['flows']): WaitView[] {
  const out: WaitView[] = [];
  const walk = (scope: Snapshot['scope'], prefix: string) => {
    const flow = flows(scope.flow);
    for (const w of scope.waits) {
      const node = flow ? flowModel(flow).node(w.node) : undefined;
      const triggers = node?.kind === 'continue-after' ? node.on : [];
      out.push({
        seq: w.seq,
        path: prefix + w.node,
        node: w.node,
        flow: scope.flow,
        gen: w.gen,
        since: w.since,
        triggers,
      });
    }
    for (const c of scope.children) walk(c.scope, `${prefix}${c.node}/`);
  };
  walk(snapshot.scope, '');
  return out.sort((a, b) => a.seq - b.seq);
}

/** Each running flow's id and the signature it started on, by path (`''` for the top level). */
export function signaturesOf(
  snapshot: Snapshot,
): { path: string; flow: string; signature: string }[] {
  const out: { path: string; flow: string; signature: string }[] = [];
  const walk = (scope: Snapshot['scope'], path: string) => {
    out.push({ path, flow: scope.flow, signature: scope.signature });
    for (const c of scope.children) walk(c.scope, `${path}${c.node}/`);
  };
  walk(snapshot.scope, '');
  return out;
}

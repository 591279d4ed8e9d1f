import type { Trigger } from '../../shared/schema.ts';
import { flowModel } from './flowModel.ts';
import type { EngineEnv } from './engineEnv.ts';
import type { Generation, RecordedCall, Snapshot } from './snapshot.ts';

export type EngineStatus = 'running' | 'waiting' | 'done' | 'failed';

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
  /** The request recorded for the node's call trigger, if it has one (docs/format.md#calls). */
  call?: RecordedCall;
}

/** Where a snapshot stands: failed, done, with a node ready, or asleep. */
export function statusOf(snapshot: Snapshot): EngineStatus {
  if (snapshot.failed) return 'failed';
  if (snapshot.done) return 'done';
  return anyReady(snapshot.scope) ? 'running' : 'waiting';
}

function anyReady(s: Snapshot['scope']): boolean {
  if (s.ready.length > 0) return true;
  for (const c of s.children) if (anyReady(c.scope)) return true;
  return false;
}

/** Every wait of the process, nested ones named by path, with the triggers of its node. */
export function waitsWithTriggers(snapshot: Snapshot, flows: EngineEnv['flows']): WaitView[] {
  const out: WaitView[] = [];
  collectWaits(snapshot.scope, '', flows, out);
  return out.length > 1 ? out.sort((a, b) => a.seq - b.seq) : out;
}

function collectWaits(
  scope: Snapshot['scope'],
  prefix: string,
  flows: EngineEnv['flows'],
  out: WaitView[],
): void {
  const flow = scope.waits.length > 0 ? flows(scope.flow) : undefined;
  for (const w of scope.waits) {
    const node = flow ? flowModel(flow).node(w.node) : undefined;
    const triggers = node?.kind === 'continue-after' ? node.on : [];
    const view: WaitView = {
      seq: w.seq,
      path: prefix + w.node,
      node: w.node,
      flow: scope.flow,
      gen: w.gen,
      since: w.since,
      triggers,
    };
    if (w.call) view.call = w.call;
    out.push(view);
  }
  for (const c of scope.children) collectWaits(c.scope, `${prefix}${c.node}/`, flows, out);
}

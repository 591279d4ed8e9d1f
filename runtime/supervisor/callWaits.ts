import type { CallWait } from '../calls/callSender.ts';
import type { ScopeSnapshot, Snapshot } from '../engine/snapshot.ts';

/**
 * The call waits a process stands at (docs/format.md#calls), nested ones named by their path
 * through sub-flow nodes, in the order they were made: what the call sender is told after every
 * commit. Read from the snapshot alone (each call wait holds its recorded request), no flow.
 */
export function callWaitsOf(snapshot: Snapshot): CallWait[] {
  const out: CallWait[] = [];
  collect(snapshot.scope, [], out);
  return out.length > 1 ? out.sort((a, b) => a.seq - b.seq) : out;
}

/**
 * `above`: the sub-flow nodes from the top level down to `scope`. A wait's path is made only
 * for a call's: every commit walks every running sub-flow here, and a path made per scope cost
 * a process running thousands of them a string each, at every commit.
 */
function collect(scope: ScopeSnapshot, above: string[], out: CallWait[]): void {
  for (const w of scope.waits)
    if (w.call)
      out.push({
        seq: w.seq,
        node: above.map((n) => `${n}/`).join('') + w.node,
        gen: w.gen,
        call: w.call,
        flow: scope.flow,
        local: w.node,
      });
  for (const c of scope.children) {
    above.push(c.node);
    collect(c.scope, above, out);
    above.pop();
  }
}

/** Whether any wait of the snapshot is a call's: a run in memory does not skip time past it. */
export function standsAtCall(snapshot: Snapshot): boolean {
  const walk = (scope: ScopeSnapshot): boolean =>
    scope.waits.some((w) => w.call !== undefined) || scope.children.some((c) => walk(c.scope));
  return walk(snapshot.scope);
}

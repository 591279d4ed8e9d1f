import type { Flow } from '../../shared/schema.ts';
import { flowModel, type FlowModel } from './flowModel.ts';
import { sharedHeads } from './generation.ts';
import type { EngineEnv } from './run.ts';
import type { Generation, ScopeSnapshot, Snapshot } from './snapshot.ts';

/**
 * Moves a snapshot onto new versions of its flows, for `continue` (docs/format.md: go on with the new
 * flow from the same position). Refused, naming the node, when a node the process stands on or
 * waits at is gone, or is no longer of a kind that can hold that position. Generations are
 * carried over head by head; a head the new flow adds starts at pass 0.
 */
export function rebaseSnapshot(
  snapshot: Snapshot,
  before: EngineEnv['flows'],
  after: EngineEnv['flows'],
): { ok: true; snapshot: Snapshot } | { ok: false; error: string } {
  const next = structuredClone(snapshot);
  const problems: string[] = [];
  const visit = (scope: ScopeSnapshot, prefix: string) => {
    const oldFlow = before(scope.flow);
    const newFlow = after(scope.flow);
    if (!oldFlow || !newFlow) {
      problems.push(`flow "${scope.flow}" is no longer in the workspace`);
      return;
    }
    const was = flowModel(oldFlow);
    const now = flowModel(newFlow);
    const need = (node: string, kind?: Flow['nodes'][number]['kind']) => {
      const n = now.node(node);
      if (!n) problems.push(`node "${prefix}${node}" no longer exists`);
      else if (kind && n.kind !== kind)
        problems.push(`node "${prefix}${node}" is no longer a ${kind}`);
      return n !== undefined;
    };
    const remap = (node: string, gen: Generation) =>
      remapGeneration(gen, was.heads(node), now.heads(node));
    for (const t of scope.ready) if (need(t.node)) t.gen = remap(t.node, t.gen);
    for (const w of scope.waits) if (need(w.node, 'continue-after')) w.gen = remap(w.node, w.gen);
    for (const c of scope.children) if (need(c.node, 'subflow')) c.gen = remap(c.node, c.gen);
    scope.joins = scope.joins.filter((j) =>
      j.decided ? now.node(j.node) !== undefined : need(j.node),
    );
    for (const j of scope.joins) j.gen = remap(j.node, j.gen);
    scope.ran = scope.ran
      .filter((f) => now.node(f.join) && now.node(f.node))
      .map((f) => ({ ...f, gen: remapShared(f.gen, was, now, f.node, f.join) }));
    scope.signature = now.signature;
    for (const c of scope.children) visit(c.scope, `${prefix}${c.node}/`);
  };
  visit(next.scope, '');
  if (problems.length > 0) return { ok: false, error: `cannot continue: ${problems.join('; ')}` };
  return { ok: true, snapshot: next };
}

function remapGeneration(
  gen: Generation,
  from: readonly string[],
  to: readonly string[],
): Generation {
  return to.map((head) => {
    const i = from.indexOf(head);
    return i < 0 ? 0 : (gen[i] ?? 0);
  });
}

function remapShared(
  gen: Generation,
  was: FlowModel,
  now: FlowModel,
  node: string,
  join: string,
): Generation {
  const from = was.heads(join).slice(0, sharedHeads(was, node, join));
  const to = now.heads(join).slice(0, sharedHeads(now, node, join));
  return remapGeneration(gen, from, to);
}

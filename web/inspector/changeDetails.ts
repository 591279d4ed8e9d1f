import type { FlowChange } from '../../shared/flowDiff.ts';
import type { Call, Flow, FlowEdge, FlowNode, Trigger } from '../../shared/schema.ts';
import { literalOrigin } from '../calls/literalOrigin.ts';

/** One value that changed: what it is, and what it was and is ("timer daily", PT48H, PT24H). */
export interface ValueChange {
  what: string;
  before: string;
  after: string;
}

const text = (v: unknown): string =>
  v === undefined || v === null ? '(none)' : typeof v === 'string' ? v : JSON.stringify(v);

function triggerValue(t: Trigger): string {
  const into = t.into ? ` into ${t.into}` : '';
  if (t.timer !== undefined) return `timer ${t.timer}`;
  if (t.event !== undefined) return `event ${t.event}${into}`;
  if (t.call !== undefined) return `a call: ${callLine(t.call)}${into}`;
  return `a person: ${t.human?.prompt ?? ''}${into}`;
}

/** A call as the node draws it: its method and the host its URL reaches, when the text says. */
function callLine(call: Call): string {
  const origin = literalOrigin(call.url);
  return `${call.method ?? 'GET'} ${origin ? new URL(origin).host : `to ${call.url}`}`;
}

/**
 * The parts of a call beyond its sentence, each a value of its own, so that a change of a
 * header, the body, the timeout or the retry is named, not only one of the method or host.
 */
function callValues(id: string, call: Call, out: Map<string, string>): void {
  out.set(`call ${id} url`, call.url);
  for (const [name, value] of Object.entries(call.headers ?? {}))
    out.set(`call ${id} header ${name}`, value);
  if (call.body !== undefined) out.set(`call ${id} body`, call.body);
  if (call.timeout !== undefined) out.set(`call ${id} timeout`, call.timeout);
  if (call.retry !== undefined) out.set(`call ${id} retry`, JSON.stringify(call.retry));
}

function nodeValues(n: FlowNode): Map<string, string> {
  const out = new Map<string, string>();
  out.set('kind', n.kind);
  if (n.depends?.length) out.set('depends', [...new Set(n.depends)].sort().join(', '));
  if (n.kind === 'work')
    for (const [path, expr] of Object.entries(n.set ?? {})) out.set(path, expr);
  if (n.kind === 'end' && n.terminate === true) out.set('terminate', 'yes');
  if (n.kind === 'continue-after')
    for (const t of n.on) {
      if (t.timer !== undefined) out.set(`timer ${t.id}`, t.timer);
      else {
        out.set(`trigger ${t.id}`, triggerValue(t));
        if (t.call !== undefined) callValues(t.id, t.call, out);
      }
    }
  if (n.kind === 'subflow') out.set('calls', n.flow);
  return out;
}

function edgeValues(e: FlowEdge): Map<string, string> {
  const out = new Map<string, string>([
    ['from', e.from],
    ['to', e.to],
  ]);
  if (e.when !== undefined) out.set('when', e.when);
  if (e.trigger !== undefined) out.set('trigger', e.trigger);
  return out;
}

function compare(a: Map<string, string>, b: Map<string, string>): ValueChange[] {
  const out: ValueChange[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const before = a.get(key);
    const after = b.get(key);
    if (before !== after) out.push({ what: key, before: text(before), after: text(after) });
  }
  return out;
}

/**
 * What a change is in values, old and new: for a changed node, each of its assignments,
 * triggers and links that differ (`timer daily: PT48H → PT24H`); for a changed edge, its ends,
 * condition and trigger. Empty when a version is missing, or only the edge's order moved.
 */
export function changeDetails(
  change: FlowChange,
  before: Flow | undefined,
  after: Flow | undefined,
): ValueChange[] {
  if (change.change !== 'changed' || !before || !after) return [];
  if (change.item === 'node') {
    const a = before.nodes.find((n) => n.id === change.id);
    const b = after.nodes.find((n) => n.id === change.id);
    return a && b ? compare(nodeValues(a), nodeValues(b)) : [];
  }
  const a = before.edges.find((e) => e.id === change.id);
  const b = after.edges.find((e) => e.id === change.id);
  return a && b ? compare(edgeValues(a), edgeValues(b)) : [];
}

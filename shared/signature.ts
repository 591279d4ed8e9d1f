import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Call, Flow, FlowEdge, FlowNode, Trigger } from './schema.ts';

/**
 * What of a node changes what runs (docs/format.md#the-context-the-snapshot-and-the-signature):
 * id, kind, depends (as a set), set (in order: the expressions run in the order written),
 * terminate, triggers (in order: the first listed wins a tie) and the sub-flow id. Positions,
 * labels, prompts, field labels and unknown fields are left out.
 */
export function nodeEssence(n: FlowNode): unknown[] {
  return [
    n.id,
    n.kind,
    [...new Set(n.depends ?? [])].sort(),
    n.kind === 'work' ? Object.entries(n.set ?? {}) : [],
    n.kind === 'end' && n.terminate === true,
    n.kind === 'continue-after' ? n.on.map(triggerEssence) : [],
    n.kind === 'subflow' ? n.flow : null,
  ];
}

function triggerEssence(t: Trigger): unknown[] {
  const fields = (t.human?.fields ?? []).map((f) => [f.name, f.type]);
  fields.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
  const essence: unknown[] = [
    t.id,
    t.timer ?? null,
    t.event ?? null,
    t.human ? fields : null,
    t.into ?? null,
  ];
  // Appended only for a call, so that every flow signed before calls existed keeps its signature
  // (a process stored then would otherwise wake to flow-changed).
  if (t.call) essence.push(callEssence(t.call));
  return essence;
}

/**
 * What of a call changes what runs: method, url, headers (as a set of names, each with its
 * expression), body, timeout and retry, each as written (an absent field and its default are
 * told apart, as a timer's text is). Unknown fields do not count.
 */
function callEssence(c: Call): unknown[] {
  const headers = Object.entries(c.headers ?? {}).sort((a, b) =>
    a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0,
  );
  const r = c.retry;
  const retry = r
    ? [r.max ?? null, r.interval ?? null, r.backoff ?? null, r.maxInterval ?? null, r.on ?? null]
    : null;
  return [c.method ?? null, c.url, headers, c.body ?? null, c.timeout ?? null, retry];
}

/** What of an edge changes what runs: all of it but unknown fields. Edge order counts too. */
export function edgeEssence(e: FlowEdge): unknown[] {
  return [e.id, e.from, e.to, e.when ?? null, e.trigger ?? null];
}

/**
 * The signature of a flow: a SHA-256 over everything that changes what runs. The same flow gives
 * the same signature whatever its key order, node order, positions and labels; a process
 * compares it on every wake to learn that its flow changed while it slept.
 */
export function signature(flow: Flow): string {
  const nodes = flow.nodes.map(nodeEssence);
  // Node order changes nothing that runs; edge order does (edges are taken in the order listed).
  nodes.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
  const text = JSON.stringify(['wakeflow-signature/1', nodes, flow.edges.map(edgeEssence)]);
  return bytesToHex(sha256(utf8ToBytes(text)));
}

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Flow, FlowEdge, FlowNode } from './schema.ts';
import { edgeEssence, nodeEssence } from './signature.ts';
import type { Problem } from './problem.ts';

/**
 * What an import from another format (BPMN) could not map, kept on the node or edge it belongs
 * to as an unknown field, `"unmapped": { "problems": [...], "fingerprint": "..." }`, so that the
 * flow imports and shows each as a problem there, as any flow that cannot run yet. The
 * fingerprint is of what the node or edge runs as imported: once the designer changes that (gives
 * the timer a duration, writes the condition), the problem is taken as dealt with. Without a
 * fingerprint (written by hand) the problems stand until the field is removed.
 */
export const UNMAPPED_FIELD = 'unmapped';

export interface Unmapped {
  problems: string[];
  fingerprint?: string;
}

const hash = (essence: unknown[]) =>
  bytesToHex(sha256(utf8ToBytes(JSON.stringify(essence)))).slice(0, 16);

export const nodeFingerprint = (n: FlowNode) => hash(nodeEssence(n));
export const edgeFingerprint = (e: FlowEdge) => hash(edgeEssence(e));

/** The node with these problems noted on it, fingerprinted as it is now. */
export function noteOnNode<N extends FlowNode>(node: N, problems: readonly string[]): N {
  if (problems.length === 0) return node;
  const note: Unmapped = { problems: [...problems], fingerprint: nodeFingerprint(node) };
  return { ...node, [UNMAPPED_FIELD]: note };
}

export function noteOnEdge(edge: FlowEdge, problems: readonly string[]): FlowEdge {
  if (problems.length === 0) return edge;
  const note: Unmapped = { problems: [...problems], fingerprint: edgeFingerprint(edge) };
  return { ...edge, [UNMAPPED_FIELD]: note };
}

/** The problems a note holds while its node or edge is as it was noted; none otherwise. */
function standing(value: unknown, fingerprint: string): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const note = value as Partial<Record<keyof Unmapped, unknown>>;
  if (typeof note.fingerprint === 'string' && note.fingerprint !== fingerprint) return [];
  const problems = Array.isArray(note.problems) ? note.problems : [note.problems];
  return problems.filter((p): p is string => typeof p === 'string' && p !== '');
}

/** Each noted problem still standing in the flow, on its node or edge (rule `unmapped`). */
export function unmappedProblems(flow: Flow): Problem[] {
  const out: Problem[] = [];
  for (const n of flow.nodes) {
    const note = (n as Record<string, unknown>)[UNMAPPED_FIELD];
    if (note === undefined) continue;
    for (const message of standing(note, nodeFingerprint(n)))
      out.push({ rule: 'unmapped', nodeId: n.id, message });
  }
  for (const e of flow.edges) {
    const note = (e as Record<string, unknown>)[UNMAPPED_FIELD];
    if (note === undefined) continue;
    for (const message of standing(note, edgeFingerprint(e)))
      out.push({ rule: 'unmapped', edgeId: e.id, message });
  }
  return out;
}

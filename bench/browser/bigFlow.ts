import type { Flow, FlowEdge, FlowNode } from '../../shared/schema.ts';

/**
 * A large flow for the canvas benchmark, the same on every run (a seeded generator): 1,000 nodes
 * on a grid, one path from start to end through all of them, and forward edges with conditions
 * on top, 1,200 edges in all. Mostly work nodes with one to three assignments, every 25th a
 * continue-after with a timer. Every edge goes forward, so the flow has no loop and can run.
 */

export const BIG_NODES = 1000;
export const BIG_EDGES = 1200;
/** Node ids of the big flow start with this, so the page can tell them from other flows'. */
export const BIG_PREFIX = 'bn';

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function bigFlow(nodes = BIG_NODES, edges = BIG_EDGES): Flow {
  const rnd = random(7);
  const columns = 40;
  const position = (i: number) => ({ x: (i % columns) * 260, y: Math.floor(i / columns) * 180 });
  const id = (i: number) => `${BIG_PREFIX}${i}`;
  const list: FlowNode[] = [];
  for (let i = 0; i < nodes; i++) {
    const base = { id: id(i), position: position(i) };
    if (i === 0) list.push({ ...base, kind: 'start' });
    else if (i === nodes - 1) list.push({ ...base, kind: 'end' });
    else if (i % 25 === 0)
      list.push({ ...base, kind: 'continue-after', on: [{ id: 'later', timer: 'PT1H' }] });
    else {
      const set: Record<string, string> = {};
      const count = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < count; k++) set[`v${(i + k) % 17}`] = `v${(i + k) % 17} + ${k + 1}`;
      list.push({ ...base, kind: 'work', label: `Step ${i}`, set });
    }
  }
  const out: FlowEdge[] = [];
  for (let i = 0; i + 1 < nodes; i++)
    out.push({ id: `be${out.length}`, from: id(i), to: id(i + 1) });
  while (out.length < edges) {
    const from = 1 + Math.floor(rnd() * (nodes - 60));
    const to = from + 2 + Math.floor(rnd() * 50);
    out.push({
      id: `be${out.length}`,
      from: id(from),
      to: id(to),
      when: `v${from % 17} > ${to % 7}`,
    });
  }
  return {
    format: 'flow/1',
    id: 'bench-canvas',
    name: 'Canvas benchmark',
    nodes: list,
    edges: out,
  };
}

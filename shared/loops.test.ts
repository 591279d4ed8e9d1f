import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeLoops } from './loops.ts';
import { parseFlowFile } from './parseFlowFile.ts';
import type { Flow, FlowEdge, FlowNode } from './schema.ts';

// A compact flow builder: `chain` lists edges as "a>b" (optionally "a>b:when").
function graph(kinds: Record<string, FlowNode['kind']>, chain: string[]): Flow {
  const nodes = Object.entries(kinds).map(([id, kind]) =>
    kind === 'continue-after'
      ? ({ id, kind, on: [{ id: 't', timer: 'PT1H' }] } as FlowNode)
      : ({ id, kind } as FlowNode),
  );
  const edges: FlowEdge[] = chain.map((s, i) => {
    const [from, to] = s.split('>') as [string, string];
    return { id: `e${i + 1}`, from, to };
  });
  return { format: 'flow/1', id: 'f', nodes, edges };
}

const sorted = (s: Iterable<string>) => [...s].sort();

describe('loop analysis (docs/format.md#loops-and-generations)', () => {
  it('finds the head, body and closing edge of the nightly-refresh loop', () => {
    const text = readFileSync(
      new URL('../examples/nightly-refresh.flows.json', import.meta.url),
      'utf8',
    );
    const parsed = parseFlowFile(text);
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const a = analyzeLoops(parsed.flows[0]!);
    expect(a.heads).toEqual(['read']);
    expect(sorted(a.loops.get('read')!.nodes)).toEqual([
      'a',
      'b',
      'both',
      'read',
      'sleep',
      'split',
    ]);
    expect([...a.closingEdges]).toEqual(['e8']);
    expect(a.irreducible).toEqual([]);
  });

  it('counts a node after the loop exit in the passes of the head that dominates it', () => {
    const f = graph({ start: 'start', read: 'work', sleep: 'continue-after', done: 'end' }, [
      'start>read',
      'read>sleep',
      'sleep>read',
      'sleep>done',
    ]);
    const a = analyzeLoops(f);
    expect(a.dominatingHeads.get('start')).toEqual([]);
    expect(a.dominatingHeads.get('read')).toEqual(['read']);
    expect(a.dominatingHeads.get('done')).toEqual(['read']);
    expect(a.loops.get('read')!.nodes.has('done')).toBe(false);
  });

  it('nests an inner loop in its outer one, outer head first', () => {
    const f = graph(
      {
        start: 'start',
        outer: 'work',
        inner: 'work',
        w1: 'continue-after',
        w2: 'continue-after',
        done: 'end',
      },
      ['start>outer', 'outer>inner', 'inner>w1', 'w1>inner', 'w1>w2', 'w2>outer', 'w2>done'],
    );
    const a = analyzeLoops(f);
    expect(a.heads).toEqual(['outer', 'inner']);
    expect(a.loops.get('inner')!.parent).toBe('outer');
    expect(a.loops.get('outer')!.parent).toBeUndefined();
    expect(sorted(a.loops.get('outer')!.nodes)).toEqual(['inner', 'outer', 'w1', 'w2']);
    expect(sorted(a.loops.get('inner')!.nodes)).toEqual(['inner', 'w1']);
    expect(a.loops.get('inner')!.closingEdges).toEqual(['e4']);
    expect(a.loops.get('outer')!.closingEdges).toEqual(['e6']);
    expect(a.dominatingHeads.get('w1')).toEqual(['outer', 'inner']);
    expect(a.dominatingHeads.get('done')).toEqual(['outer', 'inner']);
  });

  it('takes start as the head of a loop that returns to it', () => {
    const f = graph({ start: 'start', tick: 'work', wait: 'continue-after' }, [
      'start>tick',
      'tick>wait',
      'wait>start',
    ]);
    const a = analyzeLoops(f);
    expect(a.heads).toEqual(['start']);
    expect([...a.closingEdges]).toEqual(['e3']);
    expect(a.dominatingHeads.get('wait')).toEqual(['start']);
    expect(a.dominatingHeads.get('start')).toEqual(['start']);
  });

  it('does not let the heads of two sibling loops dominate the join after them', () => {
    const f = graph(
      {
        start: 'start',
        split: 'fanout',
        a: 'work',
        wa: 'continue-after',
        b: 'work',
        wb: 'continue-after',
        join: 'join',
      },
      ['start>split', 'split>a', 'a>wa', 'wa>a', 'split>b', 'b>wb', 'wb>b', 'wa>join', 'wb>join'],
    );
    const a = analyzeLoops(f);
    expect(sorted(a.heads)).toEqual(['a', 'b']);
    expect(a.dominatingHeads.get('join')).toEqual([]);
    expect(a.dominatingHeads.get('wa')).toEqual(['a']);
  });

  it('reports a cycle entered at two nodes instead of choosing a head', () => {
    const f = graph({ start: 'start', split: 'fanout', x: 'continue-after', y: 'continue-after' }, [
      'start>split',
      'split>x',
      'split>y',
      'x>y',
      'y>x',
    ]);
    const a = analyzeLoops(f);
    expect(a.heads).toEqual([]);
    expect(a.irreducible).toHaveLength(1);
    expect(sorted(a.irreducible[0]!.entries)).toEqual(['x', 'y']);
  });

  it('leaves nodes that start cannot reach out of the reachable set', () => {
    const f = graph({ start: 'start', a: 'work', island: 'work' }, ['start>a']);
    const a = analyzeLoops(f);
    expect(sorted(a.reachable)).toEqual(['a', 'start']);
    expect(a.dominatingHeads.has('island')).toBe(false);
  });

  it('analyses a chain of 5,000 nodes without overflowing the stack', () => {
    const kinds: Record<string, FlowNode['kind']> = { start: 'start' };
    const chain: string[] = [];
    let prev = 'start';
    for (let i = 0; i < 5000; i++) {
      kinds[`n${i}`] = i === 4999 ? 'continue-after' : 'work';
      chain.push(`${prev}>n${i}`);
      prev = `n${i}`;
    }
    chain.push('n4999>n0');
    const a = analyzeLoops(graph(kinds, chain));
    expect(a.heads).toEqual(['n0']);
    expect(a.loops.get('n0')!.nodes.size).toBe(5000);
  });
});

import { describe, expect, it } from 'vitest';
import {
  chain,
  edge,
  end,
  flow,
  flowsFile,
  minimalFlow,
  start,
  subflow,
  text,
} from '../../shared/fixtures/flows.ts';
import {
  countValues,
  importFlows,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_VALUES,
  tooLarge,
} from './importFlows.ts';

describe('import: a refused file changes nothing, an imported flow never overwrites', () => {
  it('refuses a broken file, naming its first problems', () => {
    const result = importFlows(
      '{"format":"flow/1","id":"x","nodes":[{"id":"a","kind":"wrok"}],"edges":[]}',
      new Set(),
    );
    expect(result).toEqual({
      ok: false,
      message: expect.stringContaining('nodes[0].kind: unknown kind "wrok"'),
    });
  });

  it('brings a flow whose id exists in under a new id', () => {
    const result = importFlows(text(minimalFlow('orders')), new Set(['orders', 'orders-2']));
    expect(result.ok && result.flows.map((f) => f.id)).toEqual(['orders-3']);
    expect(result.ok && result.renamed).toEqual([['orders', 'orders-3']]);
  });

  it('renames the sub-flow references of imported flows that were renamed', () => {
    const main = flow({ id: 'main', nodes: [start(), subflow('s', 'child')] });
    const result = importFlows(text(flowsFile([main, minimalFlow('child')])), new Set(['child']));
    if (!result.ok) throw new Error(result.message);
    expect(result.flows.map((f) => f.id)).toEqual(['main', 'child-2']);
    expect(result.flows[0]!.nodes[1]).toMatchObject({ kind: 'subflow', flow: 'child-2' });
  });
});

describe('import: a file too large for the page is refused, naming its size', () => {
  it('refuses more bytes than the limit before reading, and allows the limit itself', () => {
    expect(tooLarge(MAX_IMPORT_BYTES)).toBeUndefined();
    expect(tooLarge(20 * 1024 * 1024)).toEqual({
      ok: false,
      message: 'The file was not imported: the file is 20.0 MB; a flow file can be at most 4 MB.',
    });
  });

  it('holds pasted text to the same limit, before parsing it', () => {
    const padded = text({ ...minimalFlow('big'), padding: 'x'.repeat(MAX_IMPORT_BYTES) });
    expect(importFlows(padded, new Set())).toEqual({
      ok: false,
      message: expect.stringContaining('a flow file can be at most 4 MB'),
    });
  });

  it('refuses more JSON values than the limit, however few bytes they take', () => {
    const meta = Array.from({ length: MAX_IMPORT_VALUES }, (_, i) => i);
    const result = importFlows(text({ ...minimalFlow('wide'), meta }), new Set());
    expect(result).toEqual({
      ok: false,
      message:
        'The file was not imported: the file holds more than 250,000 values; no flow needs that many.',
    });
    const fits = Array.from({ length: MAX_IMPORT_VALUES - 100 }, (_, i) => i);
    expect(importFlows(text({ ...minimalFlow('wide'), meta: fits }), new Set()).ok).toBe(true);
  });

  it('counts values iteratively, never recursing, and stops counting past the limit', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(countValues(deep, Infinity)).toBe(100_001);
    expect(countValues(deep, 10)).toBe(11);
    expect(countValues({ a: [1, 'x', null, { b: true }] }, Infinity)).toBe(7);
  });
});

describe('import: a flow that cannot run comes in, with its problems', () => {
  it('lists each problem of each flow that cannot run, as the problems list words them', () => {
    const dangling = flow({
      id: 'dangling',
      name: 'Dangling',
      nodes: [start(), end()],
      edges: [edge('start', 'nowhere', { id: 'e1' })],
    });
    const result = importFlows(text(flowsFile([dangling, minimalFlow('fine')])), new Set());
    if (!result.ok) throw new Error(result.message);
    expect(result.cannotRun).toEqual([
      {
        id: 'dangling',
        name: 'Dangling',
        problems: expect.arrayContaining([
          'edge "e1": goes to "nowhere", which is not a node of this flow',
        ]),
      },
    ]);
  });

  it('checks sub-flow nodes against the workspace and the file, after renaming', () => {
    const calls = (id: string, callee: string) =>
      flow({
        id,
        nodes: [start(), subflow('s', callee), end()],
        edges: chain('start', 's', 'end'),
      });
    const file = text(
      flowsFile([
        calls('a', 'in-workspace'),
        calls('b', 'child'),
        calls('c', 'missing'),
        minimalFlow('child'),
      ]),
    );
    const result = importFlows(file, new Set(['in-workspace', 'child']));
    if (!result.ok) throw new Error(result.message);
    expect(result.renamed).toEqual([['child', 'child-2']]);
    expect(result.cannotRun.map((f) => f.id)).toEqual(['c']);
    expect(result.cannotRun[0]!.problems.join('\n')).toContain('"missing"');
  });
});

import { describe, expect, it } from 'vitest';
import {
  chain,
  edge,
  end,
  fanout,
  flow,
  join,
  start,
  wait,
  work,
} from '../../../shared/fixtures/flows.ts';
import { validateFlow } from '../../../shared/validateFlow.ts';
import { upstreamNodes } from './upstreamNodes.ts';

// start → outer → split → (a, b) → both → inner ⟲ (inner → sleepIn → inner) → sleepOut ⟲ outer
//                                                                           ↘ done
// `both` joins a and b inside the outer loop; `after` follows `both` inside the inner loop.
const nested = flow({
  nodes: [
    start(),
    work('before'),
    work('outer'),
    fanout('split'),
    work('a'),
    work('b'),
    join('both', ['a', 'b']),
    work('inner'),
    work('after'),
    wait('sleepIn'),
    wait('sleepOut'),
    end('done'),
  ],
  edges: [
    ...chain('start', 'before', 'outer', 'split', 'a', 'both'),
    edge('split', 'b'),
    edge('b', 'both'),
    ...chain('both', 'inner', 'after', 'sleepIn'),
    edge('sleepIn', 'inner'),
    edge('sleepIn', 'sleepOut'),
    edge('sleepOut', 'outer'),
    edge('sleepOut', 'done'),
  ],
});

describe('upstreamNodes', () => {
  it('offers the nodes before a join within one pass, a node before the loops included', () => {
    expect(upstreamNodes(nested, 'both')).toEqual(['start', 'before', 'outer', 'split', 'a', 'b']);
  });

  it('leaves out the nodes after the join, reached only round a loop', () => {
    const up = upstreamNodes(nested, 'both');
    for (const later of ['inner', 'after', 'sleepIn', 'sleepOut', 'done']) {
      expect(up).not.toContain(later);
    }
  });

  it('inside a nested loop, offers what comes before in both loops but not the inner pass after it', () => {
    expect(upstreamNodes(nested, 'inner')).toEqual([
      'start',
      'before',
      'outer',
      'split',
      'a',
      'b',
      'both',
    ]);
    expect(upstreamNodes(nested, 'sleepIn')).toContain('after');
    expect(upstreamNodes(nested, 'sleepIn')).toContain('before');
  });

  it('offers everything in the loop to a node after its exit', () => {
    expect(upstreamNodes(nested, 'done')).toEqual(
      nested.nodes.map((n) => n.id).filter((id) => id !== 'done'),
    );
  });

  it('leaves out the node itself, and has nothing for start or an unknown node', () => {
    expect(upstreamNodes(nested, 'a')).not.toContain('a');
    expect(upstreamNodes(nested, 'start')).toEqual([]);
    expect(upstreamNodes(nested, 'nowhere')).toEqual([]);
  });

  it('never offers a choice that validation would call not upstream', () => {
    for (const n of nested.nodes) {
      const f = {
        ...nested,
        nodes: nested.nodes.map((m) =>
          m.id === n.id ? { ...m, depends: upstreamNodes(nested, n.id) } : m,
        ),
      };
      const problems = validateFlow(f).filter((p) => p.rule === 'depends-upstream');
      expect(problems).toEqual([]);
    }
  });
});

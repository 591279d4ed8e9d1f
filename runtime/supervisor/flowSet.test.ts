import { describe, expect, it } from 'vitest';
import type { Child, ScopeSnapshot } from '../engine/snapshot.ts';
import { scopeFlowIds } from './flowSet.ts';

const scope = (flow: string, children: ScopeSnapshot[] = []): ScopeSnapshot => ({
  flow,
  signature: '',
  ready: [],
  waits: [],
  joins: [],
  ran: [],
  children: children.map((s, i): Child => ({ node: `n${i}`, gen: [], depth: 1, scope: s })),
});

describe('the flows a snapshot runs', () => {
  it('rule: each scope’s flow comes before its children’s, in their order, at any depth', () => {
    const tree = scope('a', [scope('b', [scope('c'), scope('d')]), scope('e', [scope('f')])]);
    expect(scopeFlowIds(tree)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('rule: scopes nested 10,000 deep are listed by a walk, not by a call and a list per level', () => {
    let deep = scope('leaf');
    for (let i = 0; i < 10_000; i++) deep = scope(`s${i}`, [deep]);
    const ids = scopeFlowIds(deep);
    expect(ids).toHaveLength(10_001);
    expect(ids[0]).toBe('s9999');
    expect(ids.at(-1)).toBe('leaf');
  });
});

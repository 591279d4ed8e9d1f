import { describe, expect, it } from 'vitest';
import type { Child, RecordedCall, ScopeSnapshot, Snapshot, Wait } from '../engine/snapshot.ts';
import { callWaitsOf } from './callWaits.ts';

const call: RecordedCall = {
  trigger: 'c',
  method: 'GET',
  url: 'https://x.test/',
  headers: {},
  timeout: 1000,
};
const waitAt = (node: string, seq: number, withCall: boolean): Wait => ({
  node,
  gen: [],
  seq,
  since: 0,
  ...(withCall ? { call } : {}),
});
const scope = (
  flow: string,
  waits: Wait[],
  children: [string, ScopeSnapshot][] = [],
): ScopeSnapshot => ({
  flow,
  signature: '',
  ready: [],
  waits,
  joins: [],
  ran: [],
  children: children.map(([node, s]): Child => ({ node, gen: [], depth: 1, scope: s })),
});

describe('the call waits a process stands at', () => {
  it('rule: each is named by its path through the sub-flow nodes above it, in the order they were made', () => {
    const top = scope(
      'main',
      [waitAt('w', 5, true), waitAt('quiet', 1, false)],
      [
        ['a', scope('sub', [waitAt('x', 3, true)], [['b', scope('deep', [waitAt('y', 2, true)])]])],
        ['c', scope('sub', [waitAt('z', 4, false)])],
      ],
    );
    const snapshot: Snapshot = { format: 'snapshot/1', seq: 6, visits: {}, passes: {}, scope: top };
    expect(callWaitsOf(snapshot).map((w) => [w.seq, w.node, w.local, w.flow])).toEqual([
      [2, 'a/b/y', 'y', 'deep'],
      [3, 'a/x', 'x', 'sub'],
      [5, 'w', 'w', 'main'],
    ]);
  });
});

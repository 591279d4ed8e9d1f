import { describe, expect, it } from 'vitest';
import { diffFlows } from '../../shared/flowDiff.ts';
import { chain, edge, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { removedOnCanvas, REMOVED_PREFIX } from '../canvas/removedItems.ts';
import { canvasDiffs } from './canvasDiff.ts';

const before = flow({
  id: 'f',
  nodes: [
    start('start', { position: { x: 0, y: 0 } }),
    work('read', { n: 'n + 1' }, { position: { x: 200, y: 0 } }),
    wait('sleep', undefined, { position: { x: 400, y: 0 } }),
    end('end', { position: { x: 600, y: 0 } }),
  ],
  edges: [...chain('start', 'read', 'sleep', 'end'), edge('sleep', 'read', { id: 'back' })],
});
const after = flow({
  id: 'f',
  nodes: [start(), work('read', { n: 'n + 10' }), work('log', { l: '1' }), end()],
  edges: [edge('start', 'read', { id: 'e1' }), edge('read', 'log'), edge('log', 'end')],
});

describe('the differences a flow-changed process draws on the canvas', () => {
  it('marks added and changed items of the flow now, and takes removed ones from the version it slept on', () => {
    const changes = diffFlows(before, after);
    const diff = canvasDiffs(changes, new Map([['f', before]])).get('f')!;
    expect(diff.nodes).toEqual(
      new Map([
        ['read', 'changed'],
        ['log', 'added'],
      ]),
    );
    expect(diff.removedNodes).toEqual([before.nodes[2]]);
    expect(diff.removedNodes[0]!.position).toEqual({ x: 400, y: 0 });
    expect(diff.removedEdges.map((e) => e.id).sort()).toEqual(
      changes
        .filter((c) => c.item === 'edge' && c.change === 'removed')
        .map((c) => c.id)
        .sort(),
    );
    expect(diff.notDrawn).toEqual([]);
  });

  it('without the old version, removed items are listed rather than drawn', () => {
    const diff = canvasDiffs(diffFlows(before, after), new Map()).get('f')!;
    expect(diff.removedNodes).toEqual([]);
    expect(diff.notDrawn).toContainEqual({ item: 'node', id: 'sleep' });
  });

  it('ghosts are fixed in place, named as removed in words, and edges join what is drawn', () => {
    const diff = canvasDiffs(diffFlows(before, after), new Map([['f', before]])).get('f')!;
    const ghosts = removedOnCanvas(diff, new Set(after.nodes.map((n) => n.id)));
    expect(ghosts.nodes).toEqual([
      expect.objectContaining({
        id: `${REMOVED_PREFIX}sleep`,
        position: { x: 400, y: 0 },
        draggable: false,
        selectable: false,
        deletable: false,
        connectable: false,
        ariaLabel: 'Removed since the process slept: continue after node sleep',
      }),
    ]);
    const back = ghosts.edges.find((e) => e.data?.edge.id === 'back')!;
    expect([back.source, back.target]).toEqual([`${REMOVED_PREFIX}sleep`, 'read']);
    expect(back.ariaLabel).toMatch(/^Removed since the process slept: edge back/);
    // An edge whose end is drawn nowhere is named instead of drawn.
    const lonely = removedOnCanvas(diff, new Set(['start']));
    expect(lonely.notDrawn).toContain('edge back');
  });

  it('a change of edge order alone marks nothing on the canvas', () => {
    const diffs = canvasDiffs([{ flow: 'f', item: 'node', id: '', change: 'changed' }], new Map());
    expect(diffs.get('f')).toBeUndefined();
  });
});

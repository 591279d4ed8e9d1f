import { beforeEach, describe, expect, it } from 'vitest';
import { chain, end, flow, join, start, wait, work } from '../../shared/fixtures/flows.ts';
import {
  createDesignerStore,
  designerActions,
  type DesignerActions,
  type DesignerStore,
} from './designerStore.ts';

const sample = () =>
  flow({
    nodes: [start(), work('w', { a: '1' }), wait('sleep'), join('j', ['w', 'sleep']), end()],
    edges: [...chain('start', 'w', 'sleep', 'j', 'end')],
  });

// Each test has a store of its own: nothing is left from the one before.
let store: DesignerStore;
let d: DesignerActions;
beforeEach(() => {
  store = createDesignerStore();
  d = designerActions(store);
  d.openFlow(sample());
});

describe('designer store: every change can be undone and redone', () => {
  it('undo removes an added node and redo brings it back', () => {
    const id = d.addNode('work', { x: 10, y: 10 });
    expect(d.currentFlow().nodes.map((n) => n.id)).toContain(id);
    d.undoEdit();
    expect(d.currentFlow().nodes.map((n) => n.id)).not.toContain(id);
    d.redoEdit();
    expect(d.currentFlow().nodes.map((n) => n.id)).toContain(id);
  });

  it('a drag of many frames is one step of history', () => {
    const before = store.getState().history.past.length;
    for (let x = 0; x < 10; x++)
      d.onNodesChange([{ type: 'position', id: 'w', position: { x, y: 0 }, dragging: true }]);
    d.onNodesChange([{ type: 'position', id: 'w', position: { x: 10, y: 0 }, dragging: false }]);
    expect(store.getState().history.past.length).toBe(before + 1);
    d.undoEdit();
    // w has no position in the file; the canvas placed it second in a row, 180 to the right.
    expect(d.currentFlow().nodes.find((n) => n.id === 'w')!.position).toEqual({ x: 180, y: 0 });
  });

  it('selecting is not an edit', () => {
    d.onNodesChange([{ type: 'select', id: 'w', selected: true }]);
    expect(store.getState().history.past).toEqual([]);
  });
});

describe('designer store: one node changed is one canvas node changed', () => {
  it('updating a node gives only that canvas node a new object', () => {
    const before = store.getState().nodes;
    d.updateNode('w', { id: 'w', kind: 'work', set: { a: '2' } });
    const after = store.getState().nodes;
    expect(after.filter((n, i) => n !== before[i]).map((n) => n.id)).toEqual(['w']);
  });
});

describe('designer store: deleting a node', () => {
  it('removes its edges and its name from every depends', () => {
    d.onNodesChange([{ type: 'remove', id: 'sleep' }]);
    const f = d.currentFlow();
    expect(f.edges.some((e) => e.from === 'sleep' || e.to === 'sleep')).toBe(false);
    expect(f.nodes.find((n) => n.id === 'j')!.depends).toEqual(['w']);
  });
});

describe('designer store: edges', () => {
  it('an edge drawn from a trigger handle names that trigger', () => {
    d.connect({ source: 'sleep', sourceHandle: 'trigger:t', target: 'end', targetHandle: null });
    expect(d.currentFlow().edges.at(-1)).toEqual({
      id: 'e1',
      from: 'sleep',
      to: 'end',
      trigger: 't',
    });
  });

  it('keeps unknown fields and positions through the canvas and back', () => {
    const original = {
      ...sample(),
      owner: 'ops',
      nodes: sample().nodes.map((n, i) => ({ ...n, position: { x: i * 100, y: 5 }, note: 'kept' })),
    };
    d.openFlow(original);
    expect(d.currentFlow()).toEqual(original);
  });
});

describe("designer store: a join's depends follows the edges drawn into it", () => {
  const joinOf = () => d.currentFlow().nodes.find((n) => n.id === 'j')!.depends;

  it('an edge drawn into a join adds its source; removing the edge takes it out again', () => {
    d.addNode('work', { x: 0, y: 200 });
    d.connect({ source: 'work1', sourceHandle: null, target: 'j', targetHandle: null });
    expect(joinOf()).toEqual(['w', 'sleep', 'work1']);
    const edge = store.getState().edges.find((e) => e.source === 'work1')!;
    d.onEdgesChange([{ type: 'remove', id: edge.id }]);
    expect(joinOf()).toEqual(['w', 'sleep']);
    // One undo brings back the edge and the name together.
    d.undoEdit();
    expect(joinOf()).toEqual(['w', 'sleep', 'work1']);
  });

  it('keeps a name ticked by hand with no edge behind it, and a second edge from one source', () => {
    // "w" is ticked in the sample, but no edge leads from w into j.
    d.connect({ source: 'sleep', sourceHandle: null, target: 'j', targetHandle: null });
    const edges = store.getState().edges.filter((e) => e.source === 'sleep' && e.target === 'j');
    expect(edges).toHaveLength(2);
    d.onEdgesChange([{ type: 'remove', id: edges[1]!.id }]);
    expect(joinOf()).toEqual(['w', 'sleep']);
  });

  it('leaves the depends of a node that is not a join alone', () => {
    d.connect({ source: 'w', sourceHandle: null, target: 'end', targetHandle: null });
    expect(d.currentFlow().nodes.find((n) => n.id === 'end')!.depends).toBeUndefined();
  });
});

describe('designer store: typing into a field', () => {
  it('applies every keystroke at once, and one typing session is one step of history', () => {
    const before = store.getState().history.past.length;
    for (const text of ['c', 'co', 'count + 1'])
      d.typedInto('field', () => d.updateNode('w', { id: 'w', kind: 'work', set: { a: text } }));
    expect(d.currentFlow().nodes.find((n) => n.id === 'w')).toMatchObject({
      set: { a: 'count + 1' },
    });
    expect(store.getState().history.past.length).toBe(before + 1);
    d.endTyping();
    d.typedInto('field', () => d.updateNode('w', { id: 'w', kind: 'work', set: { a: 'x' } }));
    expect(store.getState().history.past.length).toBe(before + 2);
    d.undoEdit();
    d.undoEdit();
    expect(d.currentFlow().nodes.find((n) => n.id === 'w')).toMatchObject({ set: { a: '1' } });
  });
});

import { ReactFlowProvider } from '@xyflow/react';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { end, fanout, join, start, subflow, wait, work } from '../../shared/fixtures/flows.ts';
import { NODE_KINDS, type FlowNode, type NodeKind } from '../../shared/schema.ts';
import { toCanvasNode } from '../designer/flowCanvas.ts';
import { KIND_NAMES } from '../designer/kinds.ts';
import { edgeTypes, nodeTypes } from './nodeTypes.ts';
import { createWorkbench, WorkbenchProvider } from '../shell/WorkbenchProvider.tsx';

const ONE_OF_EACH: Record<NodeKind, FlowNode> = {
  start: start(),
  work: work('w', { x: '1' }),
  fanout: fanout('f'),
  join: join('j', ['w']),
  'continue-after': wait('c'),
  subflow: subflow('s', 'other'),
  end: end(),
};

/** A canvas node of `node`'s flow node drawn by the component its `type` picks, as HTML. */
function draw(node: FlowNode): string {
  const canvasNode = toCanvasNode(node, { x: 0, y: 0 });
  const component = nodeTypes[canvasNode.type as NodeKind] as ComponentType<object>;
  const props = { id: node.id, data: canvasNode.data, selected: false, isConnectable: true };
  return renderToStaticMarkup(
    createElement(WorkbenchProvider, {
      parts: createWorkbench(),
      children: createElement(ReactFlowProvider, null, createElement(component, props)),
    }),
  );
}

/**
 * What only the component of each kind draws (NodeShell draws the frame, name and class of every
 * kind from the node's data, so those alone would not tell a wrong component from the right one).
 */
const OWN_PARTS: Record<NodeKind, string[]> = {
  start: [],
  work: ['aria-label="Assignments"'],
  fanout: [],
  join: ['aria-label="Waits for"'],
  'continue-after': ['aria-label="Connect from trigger t of c"'],
  subflow: ['>Open other</button>'],
  end: ['ends this branch'],
};

describe("nodeTypes: a canvas node is drawn by the component of its flow node's kind", () => {
  it('has a component for every kind and a name for each, and one edge type', () => {
    expect(Object.keys(nodeTypes).sort()).toEqual([...NODE_KINDS].sort());
    expect(Object.keys(KIND_NAMES).sort()).toEqual([...NODE_KINDS].sort());
    expect(Object.keys(edgeTypes)).toEqual(['flow']);
  });

  it.each(NODE_KINDS)("draws a %s node with its kind's parts and no other kind's", (kind) => {
    const node = ONE_OF_EACH[kind];
    const html = draw(node);
    expect(html).toContain(`class="wf-node wf-node--${kind}"`);
    expect(html).toContain(`aria-label="${KIND_NAMES[kind].toLowerCase()} node ${node.id}"`);
    for (const part of OWN_PARTS[kind]) expect(html).toContain(part);
    for (const other of NODE_KINDS.filter((k) => k !== kind))
      for (const part of OWN_PARTS[other]) expect(html, `${other}'s part`).not.toContain(part);
    // Edges come into every kind but start, and leave every kind but end.
    expect(html.includes(`Connect into ${node.id}"`), 'an edge can come in').toBe(kind !== 'start');
    expect(html.includes(`Connect from ${node.id}"`), 'an edge can leave').toBe(kind !== 'end');
  });
});

import { ReactFlowProvider } from '@xyflow/react';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { join } from '../../../shared/fixtures/flows.ts';
import { toCanvasNode } from '../../designer/flowCanvas.ts';
import { createWorkbench, WorkbenchProvider } from '../../shell/WorkbenchProvider.tsx';
import { CHIPS_AT_ONCE } from './chipsShown.ts';
import { JoinNode } from './JoinNode.tsx';

/** The chips a join waiting for `n` nodes draws in its first render. */
function chipsDrawnFirst(n: number): number {
  const node = join(
    'all',
    Array.from({ length: n }, (_, i) => `b${i}`),
  );
  const canvasNode = toCanvasNode(node, { x: 0, y: 0 });
  const props = { id: node.id, data: canvasNode.data, selected: false, isConnectable: true };
  const html = renderToStaticMarkup(
    createElement(WorkbenchProvider, {
      parts: createWorkbench(),
      children: createElement(
        ReactFlowProvider,
        null,
        createElement(JoinNode as ComponentType<object>, props),
      ),
    }),
  );
  return html.split('class="wf-chip"').length - 1;
}

describe('a join draws its chips', () => {
  it('rule: every chip at once, up to CHIPS_AT_ONCE; a longer list starts with that many', () => {
    expect(chipsDrawnFirst(3)).toBe(3);
    expect(chipsDrawnFirst(CHIPS_AT_ONCE)).toBe(CHIPS_AT_ONCE);
    expect(chipsDrawnFirst(10_000)).toBe(CHIPS_AT_ONCE);
  });
});

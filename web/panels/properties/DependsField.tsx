import { useId, useMemo } from 'react';
import type { FlowNode } from '../../../shared/schema.ts';
import { useDesigner } from '../../designer/designerStore.ts';
import { useSameItems } from '../../ui/useSameItems.ts';
import { dependsChoices, toggleDepends, type DependsChoice } from './dependsChoices.ts';
import { flowEdgeOf, useStoreEdits } from './storeEdits.ts';
import { upstreamNodes } from './upstreamNodes.ts';

const PROBLEM_WORDS: Record<NonNullable<DependsChoice['problem']>, string> = {
  missing: 'not a node of this flow',
  'not-upstream': 'does not come before this node',
  itself: 'this node itself',
};

/** `depends`, chosen from the nodes that can reach this one within one pass. */
export function DependsField({ node }: { node: FlowNode }) {
  const { changeAnyNode } = useStoreEdits();
  // Flow nodes keep their identity while the canvas moves them: dragging re-renders nothing here.
  const flowNodes = useDesigner(useSameItems((s) => s.nodes.map((n) => n.data.node)));
  const canvasEdges = useDesigner((s) => s.edges);
  const upstream = useMemo(
    () =>
      upstreamNodes(
        { format: 'flow/1', id: '', nodes: flowNodes, edges: canvasEdges.map(flowEdgeOf) },
        node.id,
      ),
    [flowNodes, canvasEdges, node.id],
  );
  const labels = useMemo(() => new Map(flowNodes.map((n) => [n.id, n.label])), [flowNodes]);
  const depends = node.depends ?? [];
  const choices = dependsChoices(node.id, upstream, depends, new Set(labels.keys()));
  const hintId = useId();
  const joinWithout = node.kind === 'join' && depends.length === 0;

  const toggle = (id: string, on: boolean) =>
    changeAnyNode(node.id, (n) => {
      const next = toggleDepends(n.depends ?? [], id, on);
      // A join keeps an empty list (it must name something: validation says so); for any other
      // node an empty `depends` means the same as none, so the field goes.
      if (next.length > 0 || n.kind === 'join') return { ...n, depends: next };
      const { depends: _gone, ...rest } = n;
      return rest as FlowNode;
    });

  return (
    <fieldset className="prop-group" aria-describedby={joinWithout ? hintId : undefined}>
      <legend>Waits for (depends)</legend>
      {choices.length === 0 && <p className="prop-hint">No node comes before this one.</p>}
      <ul className="prop-checklist">
        {choices.map((c) => {
          const label = labels.get(c.id);
          return (
            <li key={c.id}>
              <label>
                <input
                  className="nodrag"
                  type="checkbox"
                  checked={c.checked}
                  onChange={(e) => toggle(c.id, e.target.checked)}
                />{' '}
                {label ? `${label} (${c.id})` : c.id}
                {c.problem && <span className="prop-error"> — {PROBLEM_WORDS[c.problem]}</span>}
              </label>
            </li>
          );
        })}
      </ul>
      {joinWithout && (
        <p id={hintId} className="prop-error">
          A join must name the nodes it waits for: tick at least one.
        </p>
      )}
    </fieldset>
  );
}

import { useReactFlow } from '@xyflow/react';
import { memo, useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectOnly, useDesigner, useDesignerStore } from '../../designer/designerStore.ts';
import { describeListedEdge, nodeEdges } from './nodeEdges.ts';

/** Edges listed at once; a search finds any other (a split may have thousands). */
export const EDGES_LISTED = 25;

/**
 * The selected node's edges, each a button that selects it: the way to every edge from the
 * keyboard and a screen reader, whatever the canvas draws (past 300 plain edges in view the
 * canvas draws them in one layer that is not a Tab stop: docs/decisions.md).
 */
export const NodeEdgesField = memo(function NodeEdgesField({ nodeId }: { nodeId: string }) {
  const designer = useDesignerStore();
  const { fitView } = useReactFlow();
  const [filter, setFilter] = useState('');
  const searchId = useId();
  // Only this node's edges: a change elsewhere in a large flow does not render the list.
  const mine = useDesigner(
    useShallow((s) => s.edges.filter((e) => e.source === nodeId || e.target === nodeId)),
  );
  const { shown, matched, total } = nodeEdges(mine, nodeId, filter, EDGES_LISTED);
  if (total === 0) return null;
  const choose = (edgeId: string, other: string) => {
    selectOnly(designer, { edgeId });
    void fitView({ nodes: [{ id: nodeId }, { id: other }], duration: 200, maxZoom: 1.2 });
  };
  return (
    <fieldset className="prop-group">
      <legend>Edges ({total})</legend>
      {total > EDGES_LISTED && (
        <>
          <label htmlFor={searchId}>Find an edge</label>
          <input
            id={searchId}
            type="search"
            value={filter}
            placeholder="node id, trigger or condition"
            onChange={(e) => setFilter(e.target.value)}
          />
        </>
      )}
      {shown.length > 0 && (
        <ul className="prop-rows prop-edges" aria-label={`Edges of ${nodeId}`}>
          {shown.map((e) => (
            <li key={e.id}>
              <button
                type="button"
                title={describeListedEdge(e)}
                onClick={() => choose(e.id, e.other)}
              >
                {describeListedEdge(e)}
              </button>
            </li>
          ))}
        </ul>
      )}
      {total > EDGES_LISTED && (
        <p className="prop-hint" role="status">
          {matched === 0
            ? 'No edge matches.'
            : `${shown.length} of ${matched} shown${matched > shown.length ? '; type to find the others' : ''}.`}
        </p>
      )}
    </fieldset>
  );
});

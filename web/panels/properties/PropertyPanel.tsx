import { Suspense, useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { FlowEdge } from '../../../shared/schema.ts';
import { useDesigner, useDesignerActions } from '../../designer/designerStore.ts';
import { EdgeFields, NodeFields, preloadFieldsWhenIdle } from './lazyFields.ts';
import './properties.css';
import { NodeEdgesField } from './NodeEdgesField.tsx';
import { flowEdgeOf } from './storeEdits.ts';
import type { WorkspaceFlow } from './SubflowFields.tsx';

export interface PropertyPanelProps {
  /** The workspace's flows, from which a sub-flow node chooses the flow it calls. */
  workspaceFlows: readonly WorkspaceFlow[];
}

/**
 * The fields of the one selected node or edge. Every edit commits through the designer store as
 * one undo step; text commits on blur or Enter, not on every keystroke.
 */
export function PropertyPanel({ workspaceFlows }: PropertyPanelProps) {
  const nodes = useDesigner(useShallow((s) => s.nodes.filter((n) => n.selected)));
  const { deleteItems } = useDesignerActions();
  const edges = useDesigner(useShallow((s) => s.edges.filter((e) => e.selected)));
  const count = nodes.length + edges.length;
  const node = count === 1 ? nodes[0] : undefined;
  const edge = count === 1 ? edges[0] : undefined;
  useEffect(preloadFieldsWhenIdle, []);

  return (
    <section aria-label="Properties" className="property-panel" id="properties" tabIndex={0}>
      {count === 0 && (
        <p className="prop-hint">Select a node or an edge to see and edit its properties.</p>
      )}
      {count > 1 && (
        <p className="prop-hint">{count} items are selected. Select one to edit its properties.</p>
      )}
      {/* Keyed by id, so that a draft being typed never carries over to another node or edge. */}
      <Suspense fallback={<p className="prop-hint">Loading the properties…</p>}>
        {node && <NodeFields key={node.id} node={node.data.node} workspaceFlows={workspaceFlows} />}
        {node && <NodeEdgesField key={`edges:${node.id}`} nodeId={node.id} />}
        {edge && <EdgeProperties key={edge.id} edge={flowEdgeOf(edge)} />}
      </Suspense>
      {(node || edge) && (
        <button
          type="button"
          className="prop-delete"
          aria-keyshortcuts="Delete"
          onClick={() => (node ? deleteItems([node.id], []) : deleteItems([], [edge!.id]))}
        >
          {node ? `Delete node ${node.id}` : `Delete edge ${edge!.source} → ${edge!.target}`}
        </button>
      )}
    </section>
  );
}

function EdgeProperties({ edge }: { edge: FlowEdge }) {
  return (
    <>
      <h2 className="prop-title">
        Edge <code>{edge.id}</code>
      </h2>
      <EdgeFields edge={edge} />
    </>
  );
}

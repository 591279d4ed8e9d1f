import type { ElkExtendedEdge, ElkNode, ElkPort } from 'elkjs/lib/elk-api.js';
import { edgeLabelText } from './edgeLabel.ts';
import { labelSize } from './edgeGeometry.ts';
import { triggerHandleId, type CanvasEdge, type CanvasNode } from './canvasTypes.ts';

const DEFAULT_SIZE = { width: 180, height: 80 };

const port = (node: string, name: string) => `${node}::${name}`;

/**
 * The ELK graph of a drawing, laid out left to right in layers from `start`. A loop's closing
 * edges are left out: they are the feedback edges of the layering (the canvas routes them round
 * their loop itself), so every other edge points right and `start` comes first. Each node has
 * an input port on its left and its output ports on its right, a continue-after's triggers in
 * their order below its general one, so that edges leave in the order the triggers are listed.
 */
export function elkGraph(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
  closing: ReadonlySet<string>,
): ElkNode {
  const ids = new Set(nodes.map((n) => n.id));
  const children: ElkNode[] = nodes.map((n) => {
    const flowNode = n.data.node;
    const outs = [
      'out',
      ...(flowNode.kind === 'continue-after' ? flowNode.on.map((t) => triggerHandleId(t.id)) : []),
    ];
    const ports: ElkPort[] = [
      // Indices run clockwise from the top left: down the east side, then up the west.
      ...outs.map((o, i) => ({
        id: port(n.id, o),
        layoutOptions: { 'elk.port.side': 'EAST', 'elk.port.index': String(i) },
      })),
      {
        id: port(n.id, 'in'),
        layoutOptions: { 'elk.port.side': 'WEST', 'elk.port.index': String(outs.length) },
      },
    ];
    return {
      id: n.id,
      width: n.measured?.width ?? DEFAULT_SIZE.width,
      height: n.measured?.height ?? DEFAULT_SIZE.height,
      ports,
      layoutOptions: {
        'elk.portConstraints': 'FIXED_ORDER',
        ...(flowNode.kind === 'start' ? { 'elk.layered.layering.layerConstraint': 'FIRST' } : {}),
      },
    };
  });
  const laid: ElkExtendedEdge[] = edges
    .filter((e) => !closing.has(e.id) && ids.has(e.source) && ids.has(e.target))
    .map((e) => {
      const text = e.data ? edgeLabelText(e.data.edge) : '';
      return {
        id: e.id,
        sources: [port(e.source, e.sourceHandle ?? 'out')],
        targets: [port(e.target, 'in')],
        ...(text ? { labels: [{ text, ...labelSize(text) }] } : {}),
      };
    });
  return {
    id: 'flow',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.edgeRouting': 'SPLINES',
      'elk.spacing.nodeNode': '48',
      'elk.layered.spacing.nodeNodeBetweenLayers': '72',
      'elk.layered.spacing.edgeNodeBetweenLayers': '24',
      'elk.spacing.edgeLabel': '8',
      'elk.edgeLabels.placement': 'CENTER',
      // Joins and sub-flows sit level with what leads into them, where the balance allows.
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.layered.nodePlacement.bk.fixedAlignment': 'BALANCED',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.separateConnectedComponents': 'false',
    },
    children,
    edges: laid,
  };
}

/**
 * Lays the drawing out (elkGraph) and returns its nodes at their new positions, snapped to the
 * canvas's 20 px grid. elkjs is large, so it is loaded only when a designer asks for a layout.
 */
export async function layoutDrawing(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
  closing: ReadonlySet<string>,
): Promise<CanvasNode[]> {
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  const graph = await new ELK().layout(elkGraph(nodes, edges, closing));
  const snap = (v: number) => Math.round(v / 20) * 20;
  const placed = new Map(
    (graph.children ?? []).map((c) => [c.id, { x: snap(c.x ?? 0), y: snap(c.y ?? 0) }]),
  );
  return nodes.map((n) => ({ ...n, position: placed.get(n.id) ?? n.position }));
}

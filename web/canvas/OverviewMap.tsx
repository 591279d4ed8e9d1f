import { useStore, useStoreApi, type ReactFlowState } from '@xyflow/react';
import { XYMinimap, type XYMinimapInstance } from '@xyflow/system';
import { useEffect, useId, useRef, useState } from 'react';
import { shallow } from 'zustand/shallow';
import { nodeLayer, overviewBox, type NodeLayer } from './overviewLayer.ts';

/**
 * How long the nodes' picture waits after the nodes last changed before it is drawn again: a
 * drag changes them on every frame, and redrawing every node of a large flow on each of those
 * frames is what made dragging slow, so the picture follows a drag when it pauses or ends.
 */
export const LAYER_DELAY_MS = 150;

const viewOf = (s: ReactFlowState) => {
  const [tx, ty, zoom] = s.transform;
  return { x: -tx / zoom, y: -ty / zoom, width: s.width / zoom, height: s.height / zoom };
};
const sameView = (a: ReturnType<typeof viewOf>, b: ReturnType<typeof viewOf>) =>
  a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

/**
 * An overview of the flow, in place of React Flow's MiniMap (which renders a component for every
 * node, each running its selector on every frame of a pan): every node is one subpath of a
 * single path, drawn from a snapshot of the nodes' boxes; a pan moves only the view's outline.
 * Panned by dragging and zoomed by the wheel, as React Flow's own (XYMinimap).
 */
export function OverviewMap({
  width,
  height,
  ariaLabel,
}: {
  width: number;
  height: number;
  ariaLabel: string;
}) {
  const store = useStoreApi();
  const svg = useRef<SVGSVGElement>(null);
  const titleId = useId();
  const [layer, setLayer] = useState<NodeLayer>(() => nodeLayer(store.getState().nodeLookup));
  const nodes = useStore((s) => s.nodes);
  const view = useStore(viewOf, sameView);
  const panZoom = useStore((s) => s.panZoom);
  const flow = useStore(
    (s) => ({ width: s.width, height: s.height, extent: s.translateExtent }),
    shallow,
  );

  useEffect(() => {
    const timer = setTimeout(
      () => setLayer(nodeLayer(store.getState().nodeLookup)),
      LAYER_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [nodes, store]);

  const box = overviewBox(layer.bounds, view, { width, height });
  const scale = useRef(box.scale);
  scale.current = box.scale;

  const minimap = useRef<XYMinimapInstance | undefined>(undefined);
  useEffect(() => {
    if (!svg.current || !panZoom) return;
    minimap.current = XYMinimap({
      domNode: svg.current,
      panZoom,
      getTransform: () => store.getState().transform,
      getViewScale: () => scale.current,
    });
    return () => minimap.current?.destroy();
  }, [panZoom, store]);
  useEffect(() => {
    minimap.current?.update({
      translateExtent: flow.extent,
      width: flow.width,
      height: flow.height,
      inversePan: false,
      pannable: true,
      zoomStep: 1,
      zoomable: true,
    });
  }, [flow.extent, flow.width, flow.height, panZoom]);

  const { x, y, w, h, offset } = box;
  return (
    <div className="react-flow__minimap" data-testid="rf__minimap">
      <svg
        ref={svg}
        width={width}
        height={height}
        viewBox={`${x} ${y} ${w} ${h}`}
        className="react-flow__minimap-svg"
        role="img"
        aria-labelledby={titleId}
      >
        <title id={titleId}>{ariaLabel}</title>
        <path className="react-flow__minimap-node" d={layer.path} shapeRendering="crispEdges" />
        <path
          className="react-flow__minimap-mask"
          d={`M${x - offset},${y - offset}h${w + offset * 2}v${h + offset * 2}h${-w - offset * 2}z
M${view.x},${view.y}h${view.width}v${view.height}h${-view.width}z`}
          fillRule="evenodd"
          pointerEvents="none"
        />
      </svg>
    </div>
  );
}

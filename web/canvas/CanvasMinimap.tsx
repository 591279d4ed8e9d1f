import { Panel } from '@xyflow/react';
import { memo, useState } from 'react';
import { OverviewMap } from './OverviewMap.tsx';

/**
 * A small minimap in the bottom right corner, in the band the opening view keeps free of nodes,
 * that the designer can fold away. Memoised: the canvas renders on each change of the flow's nodes
 * (every frame of a drag), and the minimap follows React Flow's store on its own.
 */
export const CanvasMinimap = memo(function CanvasMinimap() {
  const [shown, setShown] = useState(true);
  return (
    <Panel position="bottom-right" className="wf-minimap">
      <button
        type="button"
        className="wf-minimap__toggle"
        aria-expanded={shown}
        aria-controls="wf-minimap"
        onClick={() => setShown((s) => !s)}
      >
        {shown ? 'Hide minimap' : 'Show minimap'}
      </button>
      {shown && (
        <div id="wf-minimap">
          <OverviewMap width={160} height={96} ariaLabel="Minimap of the flow" />
        </div>
      )}
    </Panel>
  );
});

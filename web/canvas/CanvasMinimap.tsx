import { Panel } from '@xyflow/react';
import { memo, useCallback, useState } from 'react';
import { IconButton } from '../ui/Button.tsx';
import { MapIcon } from '../ui/icons.tsx';
import { OverviewMap } from './OverviewMap.tsx';

/** The minimap's picture, in CSS pixels: with its frame's header, it stays in CONTROLS_BAND. */
const MINIMAP_SIZE = { width: 160, height: 96 };

/**
 * A small minimap in the bottom right corner, in the band the opening view keeps free of nodes
 * (useOpeningView.ts), that the designer can fold away. Its toggle is an icon button inside the
 * minimap's own frame, above the picture: a toggle beside the frame lay over the handles of nodes
 * near that corner, where a drag that starts a connection must reach them. Folded, the frame is
 * the button alone. Memoised: the canvas renders on each change of the flow's nodes (every frame
 * of a drag), and the minimap follows React Flow's store on its own.
 */
export const CanvasMinimap = memo(function CanvasMinimap() {
  const [shown, setShown] = useState(true);
  const toggle = useCallback(() => setShown((s) => !s), []);
  return (
    <Panel position="bottom-right" className="wf-minimap">
      <div className="wf-minimap__frame" role="group" aria-label="Minimap">
        <div className="wf-minimap__header">
          {/* The group's name says it to a screen reader. */}
          {shown && (
            <span className="wf-minimap__caption" aria-hidden="true">
              Minimap
            </span>
          )}
          <IconButton
            size="sm"
            className="wf-minimap__toggle"
            label={shown ? 'Hide minimap' : 'Show minimap'}
            icon={<MapIcon size={14} aria-hidden="true" />}
            aria-expanded={shown}
            aria-controls="wf-minimap"
            onClick={toggle}
          />
        </div>
        {shown && (
          <div id="wf-minimap">
            <OverviewMap {...MINIMAP_SIZE} ariaLabel="Minimap of the flow" />
          </div>
        )}
      </div>
    </Panel>
  );
});

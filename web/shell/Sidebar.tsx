import { Palette } from '../canvas/Palette.tsx';
import { useAddAtCentre } from '../designer/ui/DesignerView.tsx';
import { WorkspaceList } from '../workspace/WorkspaceList.tsx';

/** The left sidebar: the workspace's flows, then the palette of node kinds. */
export function Sidebar() {
  const addAtCentre = useAddAtCentre();
  return (
    <aside className="designer-side" aria-label="Flows and node kinds">
      <WorkspaceList />
      <div className="side-palette">
        <h2 id="palette-heading" className="side-heading">
          Add a node
        </h2>
        <Palette onAdd={addAtCentre} orientation="vertical" />
      </div>
    </aside>
  );
}

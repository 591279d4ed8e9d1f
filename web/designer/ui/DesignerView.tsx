import { ReactFlowProvider, useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Canvas } from '../../canvas/Canvas.tsx';
import { setOpenSubflowHandler } from '../../canvas/nodes/openSubflow.ts';
import { Palette } from '../../canvas/Palette.tsx';
import { useKeepInView } from '../../canvas/useKeepInView.ts';
import { useShortcuts } from '../../canvas/useShortcuts.ts';
import { openSubflowNode } from '../../inspector/openInPlace.ts';
import { ScopeBreadcrumb } from '../../inspector/ScopeBreadcrumb.tsx';
import { PropertyPanel } from '../../panels/properties/PropertyPanel.tsx';
import { useRuntimeState } from '../../state/runtimeState.ts';
import { WorkspaceList } from '../../workspace/WorkspaceList.tsx';
import {
  initialFlowId,
  openWorkspaceFlow,
  renameWorkspaceFlow,
  startAutosave,
  workspaceFlows,
} from '../../workspace/workspaceActions.ts';
import { addNode, spotForNew, useDesigner } from '../designerStore.ts';
import { startLiveValidation } from '../validation.ts';
import { DesignerToolbar } from './DesignerToolbar.tsx';
import { HelpDialog } from './HelpDialog.tsx';
import { ProblemsList } from './ProblemsList.tsx';
import { useFileImport } from './useFileImport.ts';
import './designer.css';

/** The designer: the workspace's flows, the palette, the canvas, properties and problems. */
export function DesignerView() {
  return (
    <ReactFlowProvider>
      <DesignerLayout />
    </ReactFlowProvider>
  );
}

function DesignerLayout() {
  const ready = useRuntimeState((s) => s.runtime !== undefined);
  const open = useDesigner((s) => s.open);
  const flowRefs = useRuntimeState(useShallow((s) => s.flows));
  const workspace = useMemo(() => flowRefs.map((f) => ({ id: f.id, name: f.name })), [flowRefs]);
  const [help, setHelp] = useState(false);
  const { screenToFlowPosition } = useReactFlow();
  const { importFile, message, dismiss } = useFileImport();

  useEffect(() => {
    if (!ready) return;
    void initialFlowId().then((id) => {
      if (id) void openWorkspaceFlow(id);
    });
    const stopValidation = startLiveValidation(workspaceFlows);
    const stopAutosave = startAutosave();
    const stopSubflows = setOpenSubflowHandler((id, node) => void openSubflowNode(id, node));
    return () => {
      stopValidation();
      stopAutosave();
      stopSubflows();
    };
  }, [ready]);

  const showHelp = useCallback(() => setHelp(true), []);
  useShortcuts({ onHelp: showHelp });

  const keepInView = useKeepInView();
  // A new node goes in free space beside the selection (or right of the last node), in view.
  const addBeside = useCallback(
    (kind: Parameters<typeof addNode>[0]) => {
      const pane = document.querySelector('.canvas')?.getBoundingClientRect();
      const centre = pane
        ? { x: pane.left + pane.width / 2, y: pane.top + pane.height / 2 }
        : { x: 0, y: 0 };
      const id = addNode(kind, spotForNew(screenToFlowPosition(centre)));
      requestAnimationFrame(() => keepInView(id));
    },
    [screenToFlowPosition, keepInView],
  );

  return (
    <div className="designer">
      <nav className="skip-links" aria-label="Skip links">
        <a href="#flow-canvas" onClick={skipToCanvas}>
          Skip to the canvas
        </a>
        <a href="#properties">Skip to the properties</a>
      </nav>
      <aside className="designer-side" aria-label="Flows and node kinds">
        <WorkspaceList />
        <h2 id="palette-heading">Add a node</h2>
        <Palette onAdd={addBeside} orientation="vertical" />
      </aside>
      <section className="designer-main" aria-label="Designer">
        <FlowTitle />
        <DesignerToolbar onImportFile={(f) => void importFile(f)} onHelp={showHelp} />
        {message && (
          <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'notice' : 'warning'}>
            {message.text}{' '}
            <button type="button" onClick={dismiss}>
              Dismiss
            </button>
          </p>
        )}
        <ScopeBreadcrumb />
        {open ? <Canvas /> : <p className="empty">Open or create a flow to start drawing.</p>}
      </section>
      <aside className="designer-props" aria-label="Properties and problems">
        <PropertyPanel workspaceFlows={workspace} />
        <ProblemsList />
      </aside>
      <HelpDialog open={help} onClose={() => setHelp(false)} />
    </div>
  );
}

/** Focuses the canvas's first node (or the canvas), where the keyboard can start drawing. */
function skipToCanvas(e: { preventDefault: () => void }) {
  e.preventDefault();
  const canvas = document.getElementById('flow-canvas');
  const first = canvas?.querySelector<HTMLElement>('.react-flow__node[tabindex]');
  (first ?? canvas?.querySelector<HTMLElement>('.react-flow') ?? canvas)?.focus();
}

/** The open flow's name, editable; the id stays as it is. */
function FlowTitle() {
  const id = useDesigner((s) => s.meta.id);
  const name = useDesigner((s) => s.meta.name ?? s.meta.id);
  const [draft, setDraft] = useState<string | undefined>();
  if (!id) return null;
  return (
    <div className="flow-title">
      <label htmlFor="flow-name">Flow name</label>
      <input
        id="flow-name"
        value={draft ?? name}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => {
          if (draft !== undefined && draft.trim() && draft !== name)
            void renameWorkspaceFlow(id, draft.trim());
          setDraft(undefined);
        }}
        onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
      />
      <span className="flow-id">id: {id}</span>
    </div>
  );
}

import { useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, type ReactNode } from 'react';
import { Canvas } from '../../canvas/Canvas.tsx';
import { useKeepInView } from '../../canvas/useKeepInView.ts';
import { useShortcuts } from '../../canvas/useShortcuts.ts';
import { ScopeBreadcrumb } from '../../inspector/ScopeBreadcrumb.tsx';
import { PropertyPanel } from '../../panels/properties/PropertyPanel.tsx';
import { useRuntimeState } from '../../state/runtimeState.ts';
import { Button } from '../../ui/Button.tsx';
import { useFlowNames } from '../../workspace/useFlowNames.ts';
import { useWorkspaceActions } from '../../workspace/workspaceActions.ts';
import {
  useDesigner,
  useDesignerActions,
  useDesignerStore,
  type DesignerActions,
} from '../designerStore.ts';
import { startLiveValidation } from '../validation.ts';
import { ProblemsList } from './ProblemsList.tsx';
import './designer.css';

/**
 * What the designer runs while the workspace is open: the flow opened first, live validation,
 * autosave, and the drawing shortcuts (a sub-flow node opens in place itself: openInPlace.ts). Inside a ReactFlowProvider.
 */
export function useDesignerSession(onHelp: () => void): void {
  const ready = useRuntimeState((s) => s.ready);
  const workspace = useWorkspaceActions();
  const designer = useDesignerStore();
  useEffect(() => {
    const { initialFlowId, openWorkspaceFlow, startAutosave, workspaceFlows } = workspace;
    if (!ready) return;
    void initialFlowId().then((id) => {
      if (id) void openWorkspaceFlow(id);
    });
    const stopValidation = startLiveValidation(designer, workspaceFlows);
    const stopAutosave = startAutosave();
    return () => {
      stopValidation();
      stopAutosave();
    };
  }, [ready, workspace, designer]);
  useShortcuts({ onHelp });
}

/** Adds a node of a kind in free space beside the selection (or right of the last node), in view. */
export function useAddAtCentre(): (kind: Parameters<DesignerActions['addNode']>[0]) => void {
  const { screenToFlowPosition } = useReactFlow();
  const { addNode, spotForNew } = useDesignerActions();
  const keepInView = useKeepInView();
  return useCallback(
    (kind) => {
      const pane = document.querySelector('.canvas')?.getBoundingClientRect();
      const centre = pane
        ? { x: pane.left + pane.width / 2, y: pane.top + pane.height / 2 }
        : { x: 0, y: 0 };
      const id = addNode(kind, spotForNew(screenToFlowPosition(centre)));
      requestAnimationFrame(() => keepInView(id));
    },
    [screenToFlowPosition, keepInView, addNode, spotForNew],
  );
}

/** The canvas, with the import's message and the breadcrumb of a sub-flow opened in place. */
export function DesignerArea({
  message,
  dismiss,
  notice,
  children,
}: {
  message: { ok: boolean; text: string } | undefined;
  dismiss: () => void;
  /** Said above the canvas (processes sleeping on the flow). */
  notice?: ReactNode;
  children?: ReactNode;
}) {
  const open = useDesigner((s) => s.open);
  return (
    <section className="designer-main" aria-label="Designer">
      {message && (
        <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'notice' : 'warning'}>
          {message.text}{' '}
          <Button size="sm" variant="ghost" onClick={dismiss}>
            Dismiss
          </Button>
        </p>
      )}
      <ScopeBreadcrumb />
      {notice}
      {open ? (
        <Canvas />
      ) : (
        <p className="empty">Open a flow from the list on the left, or make a new one, to draw.</p>
      )}
      {children}
    </section>
  );
}

/** The selected node's or edge's properties, and the open flow's problems; `children` first. */
export function DesignerProperties({ children }: { children?: ReactNode }) {
  // Not useShallow over the flows: they are structured clones, new on every read.
  const workspace = useFlowNames();
  return (
    <aside className="designer-props" aria-label="Properties and problems">
      {children}
      <PropertyPanel workspaceFlows={workspace} />
      <ProblemsList />
    </aside>
  );
}

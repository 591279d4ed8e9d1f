import { ReactFlowProvider } from '@xyflow/react';
import { useCallback } from 'react';
import {
  Group,
  Panel,
  Separator,
  useDefaultLayout,
  usePanelRef,
  type PanelImperativeHandle,
} from 'react-resizable-panels';
import { HelpDialog } from '../designer/ui/HelpDialog.tsx';
import {
  DesignerArea,
  DesignerProperties,
  useDesignerSession,
} from '../designer/ui/DesignerView.tsx';
import { useFileImport } from '../designer/ui/useFileImport.ts';
import { InspectorPanel } from '../inspector/InspectorPanel.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Toaster } from '../ui/Toast.tsx';
import { TooltipProvider } from '../ui/Tooltip.tsx';
import { StartProcessForm } from '../panels/StartProcessForm.tsx';
import { GettingStarted } from './GettingStarted.tsx';
import { Sidebar } from './Sidebar.tsx';
import { SkipLinks } from './SkipLinks.tsx';
import { SleepersNotice } from './SleepersNotice.tsx';
import {
  openHelp,
  setCollapsed,
  setHelpOpen,
  setStartOpen,
  useShell,
  useShellStore,
} from '../state/shellState.ts';
import { TopBar } from './TopBar.tsx';
import { WorkspaceDeleted } from './WorkspaceDeleted.tsx';
import { useRuntimeState } from '../state/runtimeState.ts';
import { PanelBoundary } from '../ui/PanelBoundary.tsx';
import { useKeyShortcut } from '../ui/keyShortcut.ts';
import { focusNextRegion } from './regionFocus.ts';
import './shell.css';

/** The workbench: one screen to draw, run and watch a flow. */
export function Workbench() {
  const deleted = useRuntimeState((s) => s.deleted);
  if (deleted) return <WorkspaceDeleted />;
  return (
    <TooltipProvider>
      <ReactFlowProvider>
        <WorkbenchLayout />
      </ReactFlowProvider>
      <Toaster />
    </TooltipProvider>
  );
}

// Layouts are remembered per group, in localStorage, after the user moves a separator.
const layoutOptions = (id: string) => ({
  id: `wakeflow.layout.${id}`,
  storage: localStorage,
  onlySaveAfterUserInteractions: false,
  // Saved at once: a collapse just before a reload is kept.
  debounceSaveMs: 0,
});

const toggle = (panel: { current: PanelImperativeHandle | null }) => () => {
  const p = panel.current;
  if (!p) return;
  if (p.isCollapsed()) p.expand();
  else p.collapse();
};

function WorkbenchLayout() {
  const shell = useShellStore();
  const onHelp = useCallback(() => openHelp(shell), [shell]);
  useDesignerSession(onHelp);
  // F6 and Shift+F6 move between the flow list, the canvas, the properties and the run view.
  useKeyShortcut('F6', () => focusNextRegion(document, false), { inText: true });
  useKeyShortcut('Shift+F6', () => focusNextRegion(document, true), { inText: true });
  const { importFile, message, dismiss } = useFileImport();
  const helpOpen = useShell((s) => s.helpOpen);
  const startOpen = useShell((s) => s.startOpen);
  // A collapsed panel draws nothing: its content is out of the tab order and the a11y tree.
  const collapsed = useShell((s) => s.collapsed);
  const rows = useDefaultLayout(layoutOptions('rows'));
  const columns = useDefaultLayout(layoutOptions('columns'));
  const sidebar = usePanelRef();
  const properties = usePanelRef();
  const run = usePanelRef();

  const runRef = useCallback(
    (handle: PanelImperativeHandle | null) => {
      run.current = handle;
      shell.setState({
        expandRun: () => {
          if (handle?.isCollapsed()) handle.expand();
        },
      });
    },
    [run, shell],
  );

  return (
    <div className="workbench">
      <SkipLinks />
      <TopBar
        onImportFile={(f) => void importFile(f)}
        toggles={{ sidebar: toggle(sidebar), properties: toggle(properties), run: toggle(run) }}
      />
      <Group orientation="vertical" className="workbench__rows" {...rows}>
        <Panel id="design" minSize="25%">
          <Group orientation="horizontal" className="workbench__columns" {...columns}>
            <Panel
              id="sidebar"
              panelRef={sidebar}
              collapsible
              defaultSize="220px"
              minSize="160px"
              maxSize="420px"
              onResize={(s) => setCollapsed(shell, 'sidebar', s.inPixels === 0)}
            >
              {!collapsed.sidebar && (
                <PanelBoundary name="Flows">
                  <Sidebar />
                </PanelBoundary>
              )}
            </Panel>
            <Separator className="resize-handle" aria-label="Resize the flow list" />
            <Panel id="canvas" minSize="30%">
              <PanelBoundary name="Canvas">
                <DesignerArea message={message} dismiss={dismiss} notice={<SleepersNotice />} />
              </PanelBoundary>
            </Panel>
            <Separator className="resize-handle" aria-label="Resize the properties" />
            <Panel
              id="properties"
              panelRef={properties}
              collapsible
              defaultSize="300px"
              minSize="220px"
              maxSize="560px"
              onResize={(s) => setCollapsed(shell, 'properties', s.inPixels === 0)}
            >
              {!collapsed.properties && (
                <PanelBoundary name="Properties">
                  <DesignerProperties>
                    <GettingStarted />
                  </DesignerProperties>
                </PanelBoundary>
              )}
            </Panel>
          </Group>
        </Panel>
        <Separator className="resize-handle resize-handle--row" aria-label="Resize the run view" />
        <Panel
          id="run"
          panelRef={runRef}
          collapsible
          defaultSize="44%"
          minSize="160px"
          onResize={(s) => setCollapsed(shell, 'run', s.inPixels === 0)}
        >
          {!collapsed.run && (
            <PanelBoundary name="Run view">
              <InspectorPanel />
            </PanelBoundary>
          )}
        </Panel>
      </Group>
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(shell, false)} />
      <Dialog
        open={startOpen}
        onOpenChange={(open) => setStartOpen(shell, open)}
        title="Start a process"
        description="A process runs the flow on a context of its own, or on the live context of another process."
      >
        <StartProcessForm onStarted={() => setStartOpen(shell, false)} />
      </Dialog>
    </div>
  );
}

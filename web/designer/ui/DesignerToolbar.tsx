import { useRef, useState } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { CanvasEdge, CanvasNode } from '../canvasTypes.ts';
import { useShowFlow } from '../../canvas/useOpeningView.ts';
import { useDesigner, useDesignerActions, useDesignerStore } from '../designerStore.ts';
import { downloadDataUrl, flowPicture } from '../exportImage.ts';
import {
  download,
  flowFileText,
  flowsFileText,
  withCalledFlows,
} from '../../workspace/exportFlows.ts';
import { useWorkspaceActions } from '../../workspace/workspaceActions.ts';
import { useRuntimeStateStore } from '../../state/runtimeState.ts';
import { downloadBpmn } from '../../workspace/exportBpmnFile.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import {
  ChevronDown,
  CircleHelp,
  Download,
  FileUp,
  Image,
  LayoutGrid,
  Redo2,
  Undo2,
  Workflow,
} from '../../ui/icons.tsx';
import { Menu, type MenuItem } from '../../ui/Menu.tsx';
import { useKeyShortcut } from '../../ui/keyShortcut.ts';

const ICON = 16;

/** Undo and redo, layout, import, export (flow, flow with sub-flows, PNG, SVG) and help. */
export function DesignerToolbar({
  onImportFile,
  onHelp,
}: {
  onImportFile: (file: File) => void;
  onHelp: () => void;
}) {
  const canUndo = useDesigner((s) => s.history.past.length > 0);
  const canRedo = useDesigner((s) => s.history.future.length > 0);
  const flowId = useDesigner((s) => s.meta.id);
  const open = useDesigner((s) => s.open);
  const { workspaceFlows } = useWorkspaceActions();
  // Read when exporting, not subscribed to: a pin set elsewhere does not render the toolbar.
  const runtimeState = useRuntimeStateStore();
  const pins = () => runtimeState.getState().pins;
  const designer = useDesignerStore();
  const { autoLayout, redoEdit, undoEdit, currentFlow } = useDesignerActions();
  const showFlow = useShowFlow();
  const { getInternalNode, fitView } = useReactFlow<CanvasNode, CanvasEdge>();
  const picker = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<string | undefined>();

  const picture = async (kind: 'png' | 'svg') => {
    setBusy(`Drawing the ${kind.toUpperCase()}…`);
    try {
      const s = designer.getState();
      const nodes = s.nodes.flatMap((n) => getInternalNode(n.id) ?? []);
      const edges = s.edges.flatMap((e) => (e.data ? [e.data.edge] : []));
      downloadDataUrl(`${flowId}.${kind}`, await flowPicture(kind, nodes, edges, s.closing));
    } finally {
      setBusy(undefined);
    }
  };
  const layout = async () => {
    setBusy('Laying out…');
    try {
      await autoLayout();
      // The canvas takes the new positions on its next frame.
      await new Promise(requestAnimationFrame);
      showFlow({ duration: 200 });
    } finally {
      setBusy(undefined);
    }
  };

  useKeyShortcut('Shift+L', () => void layout(), { enabled: open });
  // The whole flow, as the canvas's Fit View control shows it (the opening view may not).
  useKeyShortcut('Shift+1', () => void fitView({ duration: 200 }), { enabled: open });

  const exports: (MenuItem | 'separator')[] = [
    {
      label: 'Export flow',
      icon: <Download size={14} />,
      onSelect: () => download(`${flowId}.flow.json`, flowFileText(currentFlow())),
    },
    {
      label: 'Export with sub-flows',
      icon: <Workflow size={14} />,
      onSelect: () => {
        const flow = currentFlow();
        const all = workspaceFlows();
        all.set(flow.id, flow);
        download(`${flowId}.flows.json`, flowsFileText(withCalledFlows(flow, all), pins()));
      },
    },
    'separator',
    {
      label: 'Export BPMN',
      icon: <Workflow size={14} />,
      onSelect: () => void downloadBpmn(currentFlow(), workspaceFlows()),
    },
    { label: 'Export PNG', icon: <Image size={14} />, onSelect: () => void picture('png') },
    { label: 'Export SVG', icon: <Image size={14} />, onSelect: () => void picture('svg') },
  ];

  return (
    <div role="toolbar" aria-label="Flow actions" className="designer-toolbar">
      <IconButton
        label="Undo"
        tooltip="Undo the last edit"
        shortcut="Ctrl+Z"
        icon={<Undo2 size={ICON} />}
        onClick={undoEdit}
        disabled={!canUndo}
      />
      <IconButton
        label="Redo"
        tooltip="Redo what was undone"
        shortcut="Ctrl+Shift+Z"
        icon={<Redo2 size={ICON} />}
        onClick={redoEdit}
        disabled={!canRedo}
      />
      <IconButton
        label="Auto-layout"
        tooltip="Lay the nodes out left to right, and fit them to the view"
        shortcut="Shift+L"
        icon={<LayoutGrid size={ICON} />}
        onClick={() => void layout()}
        disabled={!open}
      />
      <span className="designer-toolbar__divider" aria-hidden="true" />
      <Button
        variant="ghost"
        icon={<FileUp size={ICON} aria-hidden="true" />}
        tooltip="Import flows from a .json file (or drop one on the page, or paste its text)"
        onClick={() => picker.current?.click()}
      >
        Import…
      </Button>
      <input
        ref={picker}
        type="file"
        accept=".json,application/json,.bpmn"
        hidden
        aria-label="Flow file to import"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onImportFile(file);
          e.target.value = '';
        }}
      />
      <Menu
        label="Export"
        items={exports}
        trigger={
          <Button
            variant="ghost"
            icon={<Download size={ICON} aria-hidden="true" />}
            disabled={!open}
            tooltip="Download the open flow as a file or a picture"
          >
            Export
            <ChevronDown size={12} aria-hidden="true" />
          </Button>
        }
      />
      <IconButton
        label="Help"
        tooltip="How wakeflow works, and its keyboard shortcuts"
        shortcut="?"
        icon={<CircleHelp size={ICON} />}
        onClick={onHelp}
      />
      <span role="status" className="busy">
        {busy}
      </span>
    </div>
  );
}

import { useRef, useState } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { CanvasEdge, CanvasNode } from '../canvasTypes.ts';
import { useShowFlow } from '../../canvas/useOpeningView.ts';
import { autoLayout, useDesigner, redoEdit, undoEdit, currentFlow } from '../designerStore.ts';
import { downloadDataUrl, flowPicture } from '../exportImage.ts';
import {
  download,
  flowFileText,
  flowsFileText,
  withCalledFlows,
} from '../../workspace/exportFlows.ts';
import { workspaceFlows } from '../../workspace/workspaceActions.ts';

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
  const showFlow = useShowFlow();
  const { getInternalNode } = useReactFlow<CanvasNode, CanvasEdge>();
  const picker = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<string | undefined>();

  const picture = async (kind: 'png' | 'svg') => {
    setBusy(`Drawing the ${kind.toUpperCase()}…`);
    try {
      const s = useDesigner.getState();
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

  return (
    <div role="toolbar" aria-label="Flow actions" className="designer-toolbar">
      <button type="button" onClick={undoEdit} disabled={!canUndo} aria-keyshortcuts="Control+Z">
        Undo
      </button>
      <button
        type="button"
        onClick={redoEdit}
        disabled={!canRedo}
        aria-keyshortcuts="Control+Shift+Z"
      >
        Redo
      </button>
      <button type="button" onClick={() => void layout()}>
        Auto-layout
      </button>
      <button type="button" onClick={() => picker.current?.click()}>
        Import…
      </button>
      <input
        ref={picker}
        type="file"
        accept=".json,application/json"
        hidden
        aria-label="Flow file to import"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onImportFile(file);
          e.target.value = '';
        }}
      />
      <button
        type="button"
        onClick={() => download(`${flowId}.flow.json`, flowFileText(currentFlow()))}
      >
        Export flow
      </button>
      <button
        type="button"
        onClick={() => {
          const flow = currentFlow();
          const all = workspaceFlows();
          all.set(flow.id, flow);
          download(`${flowId}.flows.json`, flowsFileText(withCalledFlows(flow, all)));
        }}
      >
        Export with sub-flows
      </button>
      <button type="button" onClick={() => void picture('png')}>
        Export PNG
      </button>
      <button type="button" onClick={() => void picture('svg')}>
        Export SVG
      </button>
      <button type="button" onClick={onHelp} aria-keyshortcuts="?">
        Help
      </button>
      <span role="status" className="busy">
        {busy}
      </span>
    </div>
  );
}

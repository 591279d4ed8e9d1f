import { memo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { useRuntimeState } from '../state/runtimeState.ts';
import { PanelBoundary } from '../ui/PanelBoundary.tsx';
import { Tooltip } from '../ui/Tooltip.tsx';
import { ClockControls } from './ClockControls.tsx';
import { ContextPanel } from './ContextPanel.tsx';
import { FlowChangedPanel } from './FlowChangedPanel.tsx';
import { GenerationsPanel } from './GenerationsPanel.tsx';
import { useInspector } from './inspectorState.ts';
import { JournalPanel } from './JournalPanel.tsx';
import { NodeVisitsSlot } from './NodeVisitsPanel.tsx';
import { ControlError, ProcessControls } from './ProcessControls.tsx';
import { ProcessTable } from './ProcessTable.tsx';
import { PastContextPanel } from './PastContextPanel.tsx';
import { SnapshotPanel } from './SnapshotPanel.tsx';
import { statusHint } from './statusLabel.ts';
import { WaitForms } from './WaitForms.tsx';
import './inspector.css';

const layout = (id: string) => ({ id: `wakeflow.layout.${id}`, storage: localStorage });

/**
 * The run view: the clock, the processes, and for the one selected its controls, what it waits
 * for, where it is (snapshot), what is true now (context) and which pass it is on
 * (generations), side by side, with its journal beside them.
 */
export function InspectorPanel() {
  // Whether there is an inspection, not the inspection: a wake renders the view of the process
  // below, not the clock and the process list beside it.
  const inspecting = useInspector((s) => s.inspection !== undefined);
  const selected = useInspector((s) => s.selected);
  const columns = useDefaultLayout(layout('run'));
  return (
    <section className="run-view" aria-labelledby="inspector-heading">
      <div className="run-view__bar">
        <h2 id="inspector-heading">Processes</h2>
        <ClockControls />
      </div>
      <ControlError />
      <Group orientation="horizontal" className="run-view__body" {...columns}>
        <Panel id="processes" defaultSize="26%" minSize="240px">
          <ProcessTable />
        </Panel>
        <Separator className="resize-handle" aria-label="Resize the process list" />
        <Panel id="process" minSize="40%">
          {inspecting ? (
            <InspectionView />
          ) : (
            <p className="empty">
              {selected
                ? 'Reading the process…'
                : 'No process selected. Press Start to run the flow on the canvas, or pick a process from the list.'}
            </p>
          )}
        </Panel>
      </Group>
    </section>
  );
}

/**
 * What of the inspection the view itself draws: which process, and which panels it has. A
 * reading that changes neither renders none of it, only the panels whose data changed (each
 * reads its own parts, useInspectionOf.ts), so the error boundaries round them stay as they are.
 */
function InspectionView() {
  const view = useInspector(
    useShallow((s) =>
      s.inspection
        ? {
            id: s.inspection.record.id,
            flow: s.inspection.record.flow,
            flowChanged: s.inspection.record.status === 'flow-changed',
            past: s.inspection.shown.entry !== undefined,
          }
        : undefined,
    ),
  );
  const columns = useDefaultLayout(layout('inspection'));
  if (!view) return null;
  return (
    <div className="inspection" aria-label={`Process ${view.id}`} role="region">
      <header className="inspection__header">
        <ProcessHeading flow={view.flow} id={view.id} />
        <StatusPill />
        <PanelBoundary name="Process controls">
          <ProcessControls />
        </PanelBoundary>
      </header>
      <Group orientation="horizontal" className="inspection__body" {...columns}>
        <Panel id="state" minSize="40%">
          <div className="side-by-side">
            {view.flowChanged && (
              <PanelBoundary name="Flow changed">
                <FlowChangedPanel />
              </PanelBoundary>
            )}
            <PanelBoundary name="Waits">
              <WaitForms />
            </PanelBoundary>
            <NodeVisitsSlot />
            <PanelBoundary name="Snapshot">
              <SnapshotPanel />
            </PanelBoundary>
            {view.past && (
              <PanelBoundary name="Past context">
                <PastContextPanel />
              </PanelBoundary>
            )}
            <PanelBoundary name="Context">
              <ContextPanel />
            </PanelBoundary>
            <PanelBoundary name="Generations">
              <GenerationsPanel />
            </PanelBoundary>
          </div>
        </Panel>
        <Separator className="resize-handle" aria-label="Resize the journal" />
        <Panel id="journal" defaultSize="34%" minSize="220px">
          <PanelBoundary name="Journal">
            <JournalPanel />
          </PanelBoundary>
        </Panel>
      </Group>
    </div>
  );
}

/** The process's flow by name, and its id: renders when they change, not on every reading. */
const ProcessHeading = memo(function ProcessHeading({ flow, id }: { flow: string; id: string }) {
  const flowName = useRuntimeState((s) => s.flows.find((f) => f.id === flow)?.name ?? flow);
  return (
    <h3>
      {flowName} <span className="hint">process {id}</span>
    </h3>
  );
});

/** The process's status, with what it means for this process: renders when either changes. */
function StatusPill() {
  const status = useInspector((s) => s.inspection?.record.status);
  const hint = useInspector((s) => (s.inspection ? statusHint(s.inspection.record) : ''));
  if (!status) return null;
  return (
    <Tooltip content={hint}>
      <span className={`status-pill status-${status}`} tabIndex={0}>
        {status}
      </span>
    </Tooltip>
  );
}

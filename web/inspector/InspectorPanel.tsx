import { memo, type ComponentType } from 'react';
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { useRuntimeState } from '../state/runtimeState.ts';
import { PanelBoundary } from '../ui/PanelBoundary.tsx';
import { Tooltip } from '../ui/Tooltip.tsx';
import { ClockControls } from './ClockControls.tsx';
import { ContextPanel } from './ContextPanel.tsx';
import { FlowChangedPanel } from './FlowChangedPanel.tsx';
import { GenerationsPanel } from './GenerationsPanel.tsx';
import { useInspector, type Inspection } from './inspectorState.ts';
import { JournalPanel } from './JournalPanel.tsx';
import { ControlError, ProcessControls } from './ProcessControls.tsx';
import { ProcessTable } from './ProcessTable.tsx';
import { PastContextPanel } from './PastContextPanel.tsx';
import { SnapshotPanel } from './SnapshotPanel.tsx';
import { statusHint } from './statusLabel.ts';
import { WaitForms } from './WaitForms.tsx';
import './inspector.css';

/**
 * A panel that renders only when a part of the inspection it shows is a new object (a reading
 * keeps every part that did not change, inspectorState.ts): a wake that changed the journal
 * and the snapshot does not render the generations of a flow that did not move. A render error
 * stays in the panel (PanelBoundary), named.
 */
function shows<K extends keyof Inspection>(
  Component: ComponentType<{ inspection: Inspection }>,
  parts: readonly K[],
  name: string,
) {
  const Held = ({ inspection }: { inspection: Inspection }) => (
    <PanelBoundary name={name}>
      <Component inspection={inspection} />
    </PanelBoundary>
  );
  return memo(Held, (a, b) => parts.every((k) => a.inspection[k] === b.inspection[k]));
}

const Controls = shows(ProcessControls, ['record'], 'Process controls');
const FlowChanged = shows(FlowChangedPanel, ['record', 'diffs', 'flows'], 'Flow changed');
const Waits = shows(WaitForms, ['record', 'flows'], 'Waits');
const Snapshot = shows(SnapshotPanel, ['record', 'flows', 'shown', 'journal'], 'Snapshot');
const PastContext = shows(PastContextPanel, ['record', 'shown', 'journal'], 'Past context');
const Context = shows(ContextPanel, ['record', 'context', 'changes', 'journal'], 'Context');
const Generations = shows(GenerationsPanel, ['record', 'flows'], 'Generations');
const Journal = shows(JournalPanel, ['record', 'journal', 'journalMore'], 'Journal');

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

function InspectionView() {
  const inspection = useInspector((s) => s.inspection);
  const columns = useDefaultLayout(layout('inspection'));
  if (!inspection) return null;
  const { record } = inspection;
  return (
    <div className="inspection" aria-label={`Process ${record.id}`} role="region">
      <header className="inspection__header">
        <ProcessHeading flow={record.flow} id={record.id} />
        <StatusPill status={record.status} hint={statusHint(record)} />
        <Controls inspection={inspection} />
      </header>
      <Group orientation="horizontal" className="inspection__body" {...columns}>
        <Panel id="state" minSize="40%">
          <div className="side-by-side">
            {record.status === 'flow-changed' && <FlowChanged inspection={inspection} />}
            <Waits inspection={inspection} />
            <Snapshot inspection={inspection} />
            {inspection.shown.entry !== undefined && <PastContext inspection={inspection} />}
            <Context inspection={inspection} />
            <Generations inspection={inspection} />
          </div>
        </Panel>
        <Separator className="resize-handle" aria-label="Resize the journal" />
        <Panel id="journal" defaultSize="34%" minSize="220px">
          <Journal inspection={inspection} />
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

const StatusPill = memo(function StatusPill({ status, hint }: { status: string; hint: string }) {
  return (
    <Tooltip content={hint}>
      <span className={`status-pill status-${status}`} tabIndex={0}>
        {status}
      </span>
    </Tooltip>
  );
});

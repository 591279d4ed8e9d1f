import { StartProcessForm } from '../panels/StartProcessForm.tsx';
import { ClockControls } from './ClockControls.tsx';
import { ContextPanel } from './ContextPanel.tsx';
import { FlowChangedPanel } from './FlowChangedPanel.tsx';
import { GenerationsPanel } from './GenerationsPanel.tsx';
import { useInspector } from './inspectorState.ts';
import { JournalPanel } from './JournalPanel.tsx';
import { ControlError, ProcessControls } from './ProcessControls.tsx';
import { ProcessTable } from './ProcessTable.tsx';
import { SnapshotPanel } from './SnapshotPanel.tsx';
import { WaitForms } from './WaitForms.tsx';
import './inspector.css';

/**
 * The inspector: start processes, pick one, and see where it is (snapshot), what is true now
 * (context) and which pass it is on (generations), side by side, while it sleeps and wakes.
 */
export function InspectorPanel() {
  const inspection = useInspector((s) => s.inspection);
  const now = useInspector((s) => s.clock.now);
  return (
    <section className="inspector" aria-labelledby="inspector-heading">
      <h2 id="inspector-heading">Processes</h2>
      <div className="inspector-top">
        <StartProcessForm />
        <ClockControls />
      </div>
      <ProcessTable />
      <ControlError />
      {inspection && (
        <div className="inspection" aria-label={`Process ${inspection.record.id}`} role="region">
          <h3>
            Process {inspection.record.id} <span className="hint">of {inspection.record.flow}</span>
          </h3>
          <ProcessControls inspection={inspection} />
          <FlowChangedPanel inspection={inspection} />
          <WaitForms inspection={inspection} />
          <div className="side-by-side">
            <SnapshotPanel inspection={inspection} now={now} />
            <ContextPanel inspection={inspection} />
            <GenerationsPanel inspection={inspection} />
          </div>
          <JournalPanel inspection={inspection} now={now} />
        </div>
      )}
    </section>
  );
}

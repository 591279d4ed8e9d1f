import { Panel } from '@xyflow/react';
import type { FlowChangesOnCanvas } from './useFlowChanges.ts';

/**
 * What changed in the flow on the canvas since the inspected process slept, in words: the marks
 * on nodes and edges say the same, and removed items drawn nowhere are named here.
 */
export function FlowChangesLegend({ legend }: { legend: FlowChangesOnCanvas['legend'] }) {
  if (!legend) return null;
  const rows = [
    ['added', legend.added],
    ['changed', legend.changed],
    ['removed', legend.removed],
  ] as const;
  return (
    <Panel position="top-right">
      <section className="wf-changes-legend" aria-label="Changes since the process slept">
        <strong>Changed since the process slept</strong>
        <ul>
          {rows
            .filter(([, ids]) => ids.length > 0)
            .map(([change, ids]) => (
              <li key={change}>
                <span className={`wf-change wf-change--${change}`}>{change}</span> {ids.join(', ')}
              </li>
            ))}
          {legend.notDrawn.length > 0 && (
            <li>
              Not drawn (the version it slept on does not hold them, or their ends are gone):{' '}
              {legend.notDrawn.join(', ')}
            </li>
          )}
        </ul>
      </section>
    </Panel>
  );
}

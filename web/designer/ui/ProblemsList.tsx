import { useReactFlow } from '@xyflow/react';
import { describeProblemIn } from '../../../shared/describeProblem.ts';
import { selectOnly, useDesigner, useDesignerStore } from '../designerStore.ts';

/** Every problem of the open flow; clicking one selects its node or edge and brings it to view. */
export function ProblemsList() {
  const all = useDesigner((s) => s.problems);
  const checked = useDesigner((s) => s.checked);
  const edges = useDesigner((s) => s.edges);
  const designer = useDesignerStore();
  const { fitView } = useReactFlow();
  const problems = all.filter((p) => p.severity !== 'warning');
  const warnings = all.filter((p) => p.severity === 'warning');
  const ends = (id: string) => {
    const e = edges.find((x) => x.id === id);
    return e ? { from: e.source, to: e.target } : undefined;
  };
  const select = (nodeId?: string, edgeId?: string) => {
    selectOnly(designer, { nodeId, edgeId });
    if (nodeId) void fitView({ nodes: [{ id: nodeId }], duration: 200, maxZoom: 1.2 });
  };
  return (
    <section className="problems" aria-labelledby="problems-heading">
      <h2 id="problems-heading">
        Problems <span className="count">{problems.length}</span>
        {warnings.length > 0 && (
          <>
            {' · '}Warnings <span className="count">{warnings.length}</span>
          </>
        )}
      </h2>
      {!checked && <p className="ok">Checking the flow…</p>}
      {checked && problems.length === 0 && warnings.length === 0 && (
        <p className="ok">No problems: this flow can run.</p>
      )}
      {checked && problems.length === 0 && warnings.length > 0 && (
        <p className="ok">No problems: this flow can run, with warnings.</p>
      )}
      {[...problems, ...warnings].length > 0 && (
        <ul aria-label="Problems">
          {[...problems, ...warnings].map((p, i) => (
            <li key={i} className={p.severity === 'warning' ? 'warning-item' : undefined}>
              <button
                type="button"
                onClick={() => select(p.nodeId, p.edgeId)}
                disabled={!p.nodeId && !p.edgeId}
              >
                {p.severity === 'warning' ? 'Warning: ' : ''}
                {describeProblemIn(p, ends)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

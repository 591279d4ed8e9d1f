import { useReactFlow } from '@xyflow/react';
import { describeProblem } from '../../../shared/describeProblem.ts';
import { useDesigner } from '../designerStore.ts';

/** Every problem of the open flow; clicking one selects its node or edge and brings it to view. */
export function ProblemsList() {
  const problems = useDesigner((s) => s.problems);
  const { fitView } = useReactFlow();
  const select = (nodeId?: string, edgeId?: string) => {
    useDesigner.setState((s) => ({
      nodes: s.nodes.map((n) =>
        n.selected === (n.id === nodeId) ? n : { ...n, selected: n.id === nodeId },
      ),
      edges: s.edges.map((e) =>
        e.selected === (e.id === edgeId) ? e : { ...e, selected: e.id === edgeId },
      ),
    }));
    if (nodeId) void fitView({ nodes: [{ id: nodeId }], duration: 200, maxZoom: 1.2 });
  };
  return (
    <section className="problems" aria-labelledby="problems-heading">
      <h2 id="problems-heading">
        Problems <span className="count">{problems.length}</span>
      </h2>
      {problems.length === 0 ? (
        <p className="ok">No problems: this flow can run.</p>
      ) : (
        <ul aria-label="Problems">
          {problems.map((p, i) => (
            <li key={i}>
              <button
                type="button"
                onClick={() => select(p.nodeId, p.edgeId)}
                disabled={!p.nodeId && !p.edgeId}
              >
                {describeProblem(p)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

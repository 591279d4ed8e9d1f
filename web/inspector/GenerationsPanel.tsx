import { flowLoops } from '../../shared/loops.ts';
import type { ScopeSnapshot } from '../../runtime/engine/snapshot.ts';
import type { Inspection } from './inspectorState.ts';
import { useInspectionOf } from './useInspectionOf.ts';

/** Join records of every scope, by path, with the generation each counts. */
function joinsOf(
  scope: ScopeSnapshot,
  prefix = '',
): { path: string; gen: number[]; decided: boolean; ran: string[] }[] {
  return [
    ...scope.joins.map((j) => ({
      path: prefix + j.node,
      gen: j.gen,
      decided: j.decided,
      ran: scope.ran.filter((f) => f.join === j.node).map((f) => f.node),
    })),
    ...scope.children.flatMap((c) => joinsOf(c.scope, `${prefix}${c.node}/`)),
  ];
}

/**
 * The pass each loop head is on now, by path: the newest generation among what is live (ready,
 * asleep, waiting at a join, running a sub-flow) under that head.
 */
function currentPasses(
  scope: ScopeSnapshot,
  flows: Inspection['flows'],
  prefix = '',
): Map<string, number> {
  const out = new Map<string, number>();
  const flow = flows.get(scope.flow);
  if (!flow) return out;
  // The loop analysis alone (the engine's model also signs the flow and works out what reaches
  // what): for a flow of 10,000 nodes the model was a third more of the first reading's task.
  const { dominatingHeads } = flowLoops(flow).loops;
  const live = [
    ...scope.ready,
    ...scope.waits,
    ...scope.children,
    ...scope.joins.filter((j) => !j.decided),
  ];
  for (const item of live) {
    (dominatingHeads.get(item.node) ?? []).forEach((head, i) => {
      const path = prefix + head;
      out.set(path, Math.max(out.get(path) ?? 0, item.gen[i] ?? 0));
    });
  }
  for (const c of scope.children) {
    for (const [k, v] of currentPasses(c.scope, flows, `${prefix}${c.node}/`)) out.set(k, v);
  }
  return out;
}

/** Per loop head its passes; per join its arrivals in each generation still open. */
export function GenerationsPanel() {
  const inspection = useInspectionOf(['record', 'flows']);
  const { passes, visits } = inspection.record.snapshot;
  const current = currentPasses(inspection.record.snapshot.scope, inspection.flows);
  const heads = [...new Set([...Object.keys(passes), ...current.keys()])].map(
    (h) => [h, passes[h] ?? 0] as const,
  );
  const joins = joinsOf(inspection.record.snapshot.scope);
  return (
    // Focusable: it scrolls, and has no control of its own to reach it by the keyboard.
    <section className="inspector-panel" aria-labelledby="generations-heading" tabIndex={0}>
      <h3 id="generations-heading">Generations</h3>
      {heads.length === 0 ? (
        <p>No loop has gone round yet.</p>
      ) : (
        <table aria-label="Loop passes">
          <thead>
            <tr>
              <th scope="col">Loop head</th>
              <th scope="col">Passes in all</th>
              <th scope="col">Pass now</th>
            </tr>
          </thead>
          <tbody>
            {heads.map(([head, n]) => (
              <tr key={head}>
                <th scope="row">{head}</th>
                <td>{n}</td>
                <td>{current.has(head) ? current.get(head) : 'left the loop'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h4>Joins</h4>
      {joins.length === 0 ? (
        <p>No join is waiting.</p>
      ) : (
        <ul aria-label="Join arrivals">
          {joins.map((j) => (
            <li key={`${j.path}@${j.gen.join('.')}`}>
              {j.path}
              {j.gen.length > 0 && `, generation ${j.gen.join('.')}`}:{' '}
              {j.decided ? 'decided' : 'waiting'}; ran so far:{' '}
              {j.ran.length > 0 ? j.ran.join(', ') : 'none'}
            </li>
          ))}
        </ul>
      )}
      <h4>Visits</h4>
      <p aria-label="Visits">
        {Object.entries(visits)
          .map(([node, n]) => `${node} ${n}`)
          .join(', ') || 'none yet'}
      </p>
    </section>
  );
}

import type { Flow } from '../shared/schema.ts';
import type { Problem } from '../shared/validateFlow.ts';
import { describeProblem } from '../shared/describeProblem.ts';

interface Props {
  file: string;
  flow: Flow;
  problems: readonly Problem[];
}

export function FlowSummary({ file, flow, problems }: Props) {
  const name = flow.name ?? flow.id;
  return (
    <>
      <h2>{name}</h2>
      <p className="meta">
        <code>{file}</code> · {count(flow.nodes.length, 'node')} ·{' '}
        {count(flow.edges.length, 'edge')}
      </p>
      {problems.length === 0 ? (
        <p className="status status-ok">No problems</p>
      ) : (
        <>
          <p className="status status-error">{count(problems.length, 'problem')}</p>
          <ul className="problems" aria-label={`Problems in ${name}`}>
            {problems.map((problem, index) => (
              <li key={index}>{describeProblem(problem)}</li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

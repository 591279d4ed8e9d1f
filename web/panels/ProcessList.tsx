import { memo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useRuntimeState, type ProcessView } from '../state/runtimeState.ts';

/** Every process of the workspace with its status, due time, wakes and live context. */
export function ProcessList() {
  const processes = useRuntimeState(useShallow((s) => s.processes));
  const names = useRuntimeState(
    useShallow((s) => Object.fromEntries(s.flows.map((f) => [f.id, f.name ?? f.id]))),
  );
  if (processes.length === 0) return <p>No processes yet. Start one above.</p>;
  return (
    <ul className="process-list" aria-label="Processes">
      {processes.map((p) => (
        <ProcessItem key={p.id} process={p} flowName={names[p.flow] ?? p.flow} />
      ))}
    </ul>
  );
}

const ProcessItem = memo(function ProcessItem({
  process: p,
  flowName,
}: {
  process: ProcessView;
  flowName: string;
}) {
  return (
    <li className="process" aria-label={`Process ${p.id}`}>
      <h3>
        {flowName} <span className="process-id">{p.id}</span>
      </h3>
      <dl>
        <dt>Status</dt>
        <dd data-testid="status">{p.status}</dd>
        <dt>Due</dt>
        <dd>
          {p.due === null ? (
            'no timer'
          ) : (
            <time dateTime={new Date(p.due).toISOString()}>{new Date(p.due).toISOString()}</time>
          )}
        </dd>
        <dt>Wakes</dt>
        <dd>{p.wakes}</dd>
        {p.error && (
          <>
            <dt>Error</dt>
            <dd>{p.error}</dd>
          </>
        )}
      </dl>
      <pre aria-label="Context">{JSON.stringify(p.context, null, 2)}</pre>
    </li>
  );
});

import { timersOf, waitDue } from '../../runtime/engine/timers.ts';
import { waitsWithTriggers } from '../../runtime/engine/step.ts';
import type { ScopeSnapshot } from '../../runtime/engine/snapshot.ts';
import { formatDue } from './formatTime.ts';
import type { Inspection } from './inspectorState.ts';

const gen = (g: number[]) => (g.length === 0 ? '—' : g.join('.'));

/** Every ready node of the process, nested ones by path. */
function readyOf(scope: ScopeSnapshot, prefix = ''): { path: string; gen: number[] }[] {
  return [
    ...scope.ready.map((t) => ({ path: prefix + t.node, gen: t.gen })),
    ...scope.children.flatMap((c) => readyOf(c.scope, `${prefix}${c.node}/`)),
  ];
}

/** Where the process is: ready nodes, waits with their due times, and the snapshot's JSON. */
export function SnapshotPanel({ inspection, now }: { inspection: Inspection; now: number }) {
  const { record, flows } = inspection;
  const lookup = (f: string) => flows.get(f);
  const timers = timersOf(record.snapshot, lookup);
  const waits = waitsWithTriggers(record.snapshot, lookup);
  const ready = readyOf(record.snapshot.scope);
  const json = JSON.stringify(record.snapshot, null, 2);
  return (
    <section className="inspector-panel" aria-labelledby="snapshot-heading">
      <h3 id="snapshot-heading">Snapshot</h3>
      <dl>
        <dt>Status</dt>
        <dd aria-label="Process status">{record.status}</dd>
        {record.error && (
          <>
            <dt>Error</dt>
            <dd>{record.error}</dd>
          </>
        )}
        <dt>Ready</dt>
        <dd>
          {ready.length === 0
            ? 'nothing'
            : ready.map((r) => `${r.path} (generation ${gen(r.gen)})`).join(', ')}
        </dd>
        <dt>Waits</dt>
        <dd>
          {waits.length === 0 ? (
            'none'
          ) : (
            <ul aria-label="Waits">
              {waits.map((w) => {
                const due = waitDue(timers, w.seq);
                return (
                  <li key={w.seq}>
                    <strong>{w.path}</strong> (generation {gen(w.gen)}) waits for{' '}
                    {w.triggers.map((t) => describeTrigger(t)).join(' or ')}
                    {due !== null && <> — due {formatDue(due, now)}</>}
                  </li>
                );
              })}
            </ul>
          )}
        </dd>
        <dt>Size</dt>
        <dd>{json.length} bytes</dd>
      </dl>
      <details>
        <summary>Snapshot JSON</summary>
        <pre aria-label="Snapshot JSON">{json}</pre>
      </details>
    </section>
  );
}

function describeTrigger(t: {
  id: string;
  timer?: string;
  event?: string;
  human?: unknown;
}): string {
  if (t.timer !== undefined) return `timer ${t.id} (${t.timer})`;
  if (t.event !== undefined) return `event "${t.event}"`;
  return `a person (${t.id})`;
}

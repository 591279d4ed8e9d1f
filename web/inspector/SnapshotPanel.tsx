import { timersOf, waitDue } from '../../runtime/engine/timers.ts';
import { LongText } from './LongText.tsx';
import { statusOf, waitsWithTriggers } from '../../runtime/engine/waits.ts';
import type { ScopeSnapshot } from '../../runtime/engine/snapshot.ts';
import { describeEntry } from './describeEntry.ts';
import { Countdown } from './Countdown.tsx';
import { formatInstant } from './formatTime.ts';
import { Button } from '../ui/Button.tsx';
import { showAsOf, useInspector, useInspectorStore } from './inspectorState.ts';
import { useInspectionOf } from './useInspectionOf.ts';

// A node outside every loop has no generation: nothing is said of it then, not a dash.
const genNote = (g: number[]) => (g.length === 0 ? '' : ` (generation ${g.join('.')})`);

/** Every ready node of the process, nested ones by path. */
function readyOf(scope: ScopeSnapshot, prefix = ''): { path: string; gen: number[] }[] {
  return [
    ...scope.ready.map((t) => ({ path: prefix + t.node, gen: t.gen })),
    ...scope.children.flatMap((c) => readyOf(c.scope, `${prefix}${c.node}/`)),
  ];
}

/**
 * Where the process is: ready nodes, waits with their due times, and the snapshot's JSON. With a
 * journal entry chosen, the snapshot kept with it instead, read-only and labelled as of when.
 */
export function SnapshotPanel() {
  const inspection = useInspectionOf(['record', 'flows', 'shown', 'journal']);
  const { record, flows, shown, journal } = inspection;
  const { snapshot } = shown;
  const asOf = useInspector((s) => s.asOf);
  const inspector = useInspectorStore();
  const past = shown.entry !== undefined ? journal[shown.entry] : undefined;
  // The entry the designer chose, which names the moment; `past` is the one whose snapshot is kept.
  const chosenIndex = asOf ?? shown.entry ?? 0;
  const chosen = journal[chosenIndex] ?? past!;
  const lookup = (f: string) => flows.get(f);
  const timers = timersOf(snapshot, lookup);
  const waits = waitsWithTriggers(snapshot, lookup);
  const ready = readyOf(snapshot.scope);
  const json = JSON.stringify(snapshot, null, 2);
  return (
    <section
      className={past ? 'inspector-panel snapshot-past' : 'inspector-panel'}
      aria-labelledby="snapshot-heading"
    >
      <h3 id="snapshot-heading">Snapshot{past && <> as of {formatInstant(chosen.at)}</>}</h3>
      {asOf !== undefined && !past && (
        <p className="as-of" role="status">
          No snapshot was kept with entry {asOf + 1} (it was written before snapshots were kept);
          this is the snapshot now.{' '}
          <Button size="sm" onClick={() => showAsOf(inspector, undefined)}>
            Back to now
          </Button>
        </p>
      )}
      {past && (
        <p className="as-of" role="status">
          <span aria-label="Snapshot as of">
            Entry {chosenIndex + 1}: {describeEntry(chosen)}, at {formatInstant(chosen.at)}
          </span>{' '}
          {/* A wake commits once (group commit): an entry inside it shows where it stopped. */}
          {shown.entry !== chosenIndex && <>(the position kept at entry {shown.entry! + 1}) </>}
          (read-only){' '}
          <Button size="sm" onClick={() => showAsOf(inspector, undefined)}>
            Back to now
          </Button>
        </p>
      )}
      <dl>
        <dt>Status</dt>
        {past ? (
          <dd aria-label="Status then">{statusOf(snapshot)}</dd>
        ) : (
          <dd aria-label="Process status">{record.status}</dd>
        )}
        {!past && record.error && (
          <>
            <dt>Error</dt>
            <dd>{record.error}</dd>
          </>
        )}
        <dt>Ready</dt>
        <dd>
          {ready.length === 0
            ? 'nothing'
            : ready.map((r) => `${r.path}${genNote(r.gen)}`).join(', ')}
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
                    <strong>{w.path}</strong>
                    {genNote(w.gen)} waits for{' '}
                    {w.triggers.map((t) => describeTrigger(t)).join(' or ')}
                    {due !== null && (
                      <>
                        {' '}
                        — due <Countdown due={due} />
                      </>
                    )}
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
        <LongText aria-label="Snapshot JSON" text={json} />
      </details>
    </section>
  );
}

function describeTrigger(t: {
  id: string;
  timer?: string;
  event?: string;
  human?: unknown;
  call?: unknown;
}): string {
  if (t.timer !== undefined) return `timer ${t.id} (${t.timer})`;
  if (t.event !== undefined) return `event "${t.event}"`;
  if (t.call !== undefined) return `a call's answer (${t.id})`;
  return `a person (${t.id})`;
}

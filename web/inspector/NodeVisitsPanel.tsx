import { memo, useEffect, useId, useState } from 'react';
import type {
  NodeVisit,
  NodeVisits,
  ValueText,
  VisitRead,
} from '../../runtime/supervisor/nodeVisits.ts';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import { useDesigner, type DesignerState } from '../designer/designerStore.ts';
import { useRuntimeConnection } from '../state/runtimeConnection.ts';
import { PanelBoundary } from '../ui/PanelBoundary.tsx';
import { formatInstant } from './formatTime.ts';
import { useInspector, type Inspection } from './inspectorState.ts';
import { seqOf } from './journalKinds.ts';

/** The id of the one node selected on the canvas, or undefined (none, several, or an edge too). */
function singleSelectedNode(s: DesignerState): string | undefined {
  let found: string | undefined;
  for (const n of s.nodes) {
    if (!n.selected) continue;
    if (found !== undefined) return undefined;
    found = n.id;
  }
  return found !== undefined && !s.edges.some((e) => e.selected) ? found : undefined;
}

/**
 * Where the per-node view goes in the run view: nothing unless exactly one node is selected on
 * a canvas that shows the inspected process. Its selectors give strings, which a wake does not
 * change, and it takes no props: with no node selected, a wake renders nothing here
 * (e2e/idleRenders.spec.ts).
 */
export const NodeVisitsSlot = memo(function NodeVisitsSlot() {
  const selected = useDesigner(singleSelectedNode);
  const onCanvas = useDesigner((s) => s.meta.id);
  const target = useInspector((s) => {
    const level = s.inspection?.levels.at(-1);
    if (selected === undefined || !level || level.flow !== onCanvas) return undefined;
    // The node's path as the journal names it: the sub-flow nodes opened in place, then its id.
    return `${s.inspection!.record.id}\n${[...level.path, selected].join('/')}`;
  });
  if (target === undefined) return null;
  const [process, node] = target.split('\n') as [string, string];
  return (
    <PanelBoundary name="Node visits">
      <NodeVisitsPanel key={target} process={process} node={node} />
    </PanelBoundary>
  );
});

/**
 * What tells that the node's visits may have changed: the newest journal entry naming it. A
 * wake that did not reach the node gives the same text, so the panel neither renders nor reads.
 */
function lastEntryNaming(journal: readonly JournalEntry[] | undefined, node: string): string {
  if (!journal) return '';
  for (let i = journal.length - 1; i >= 0; i--) {
    const e = journal[i]!;
    if ('node' in e && e.node === node) return `${seqOf(e) ?? `#${i}`} ${e.type}`;
  }
  return 'none';
}

/** The store's number of the journal entry whose moment is shown, or undefined when now is. */
function shownSeq(inspection: Inspection | undefined): number | undefined {
  const entry = inspection?.shown.entry;
  if (entry === undefined) return undefined;
  const e = inspection!.journal[entry];
  return e && seqOf(e);
}

const sameAnswer = (a: NodeVisits, b: NodeVisits) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A node's visits in the inspected process, newest first, as n8n shows a node's input and output:
 * per visit (by generation) the context paths its expressions read with their values then, and
 * what it wrote, old → new, side by side; the trigger that fired and a call's outcome. Read from
 * the runtime's worker (`Runtime.nodeVisits`), which sends the newest visits and their count.
 */
export function NodeVisitsPanel({ process, node }: { process: string; node: string }) {
  const changed = useInspector((s) => lastEntryNaming(s.inspection?.journal, node));
  // Time travel: the process as of the entry picked has made only the visits up to it.
  const upTo = useInspector((s) => shownSeq(s.inspection));
  const connection = useRuntimeConnection();
  const [answer, setAnswer] = useState<NodeVisits | undefined>();
  const heading = useId();

  useEffect(() => {
    const runtime = connection.current;
    if (!runtime) return;
    let current = true;
    runtime.nodeVisits(process, node, undefined, upTo).then(
      (visits) => {
        if (current) setAnswer((was) => (was && sameAnswer(was, visits) ? was : visits));
      },
      (e: unknown) => {
        if (current) setAnswer({ ok: false, problem: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => {
      current = false;
    };
  }, [connection, process, node, changed, upTo]);

  return (
    <section className="inspector-panel node-visits" aria-labelledby={heading}>
      <h3 id={heading}>
        Visits of <code>{node}</code>
      </h3>
      {!answer ? (
        <p role="status">Reading the visits…</p>
      ) : !answer.ok ? (
        <p role="status">The visits cannot be read: {answer.problem}.</p>
      ) : answer.total === 0 ? (
        <p role="status">
          Not visited yet: no branch of this process has reached <code>{node}</code>
          {answer.summarizedPasses > 0 ? ' in the passes its journal keeps' : ''}.
        </p>
      ) : (
        <>
          <VisitNotes visits={answer} />
          {upTo !== undefined && (
            <p className="hint">As of the journal entry picked: later visits are not shown.</p>
          )}
          <ol className="node-visits__list" aria-label={`Visits of ${node}, newest first`}>
            {[...answer.visits].reverse().map((v) => (
              <Visit key={v.number} visit={v} />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

function VisitNotes({ visits }: { visits: Extract<NodeVisits, { ok: true }> }) {
  const hidden = visits.total - visits.visits.length;
  const count = visits.total === 1 ? '1 visit' : `${visits.total.toLocaleString('en')} visits`;
  return (
    <>
      <p className="hint">
        {count}, newest first
        {hidden > 0 &&
          `; the newest ${visits.visits.length} are shown, ${hidden.toLocaleString('en')} older ${hidden === 1 ? 'is' : 'are'} not`}
        .
      </p>
      {visits.summarizedPasses > 0 && (
        <p className="hint">
          Visits in the {visits.summarizedPasses.toLocaleString('en')} older passes the journal
          summed up are not counted.
        </p>
      )}
      {visits.valuesProblem && (
        <p className="hint">Values are not shown: {visits.valuesProblem}.</p>
      )}
    </>
  );
}

const generationText = (gen: NodeVisit['gen']) =>
  gen === null ? 'generation not known' : gen.length === 0 ? '' : `generation ${gen.join('.')}`;

function statusText(v: NodeVisit): string {
  const at = formatInstant(v.endedAt ?? v.at);
  switch (v.status) {
    case 'ran':
      return `ran at ${at}`;
    case 'waiting':
      return `waiting since ${formatInstant(v.at)}`;
    case 'skipped':
      return `skipped at ${at}`;
    case 'failed':
      return `failed at ${at}`;
    case 'dropped':
      return `was waiting from ${formatInstant(v.at)}; dropped when the process ended`;
  }
}

function Visit({ visit: v }: { visit: NodeVisit }) {
  const heading = useId();
  const gen = generationText(v.gen);
  return (
    <li className={`node-visit node-visit--${v.status}`}>
      <h4 id={heading}>
        Visit {v.number}
        {gen && ` · ${gen}`}
      </h4>
      <p className="node-visit__status">
        {statusText(v)}
        {v.error !== undefined && `: ${v.error}`}
      </p>
      {v.trigger && (
        <p>
          Fired: <code>{v.trigger.id}</code> ({v.trigger.kind}) at {formatInstant(v.trigger.at)}
        </p>
      )}
      {v.outcome !== undefined && (
        <div className="node-visit__outcome">
          Call outcome:{' '}
          {v.outcome === null ? (
            <span className="hint">not kept (the trigger has no “into”)</span>
          ) : (
            <Value value={v.outcome} />
          )}
        </div>
      )}
      <div className="node-visit__io">
        <section aria-labelledby={`${heading}-in`}>
          <h5 id={`${heading}-in`}>Read</h5>
          <Reads reads={v.reads} none="Its expressions read nothing of the context." />
          {v.conditions.length > 0 && (
            <>
              <p className="hint">Its edges’ conditions, after its writes:</p>
              <Reads reads={v.conditions} none="" />
            </>
          )}
        </section>
        <section aria-labelledby={`${heading}-out`}>
          <h5 id={`${heading}-out`}>Wrote</h5>
          {v.writes.length === 0 ? (
            <p className="hint">Nothing.</p>
          ) : (
            <ul className="node-visit__values">
              {v.writes.map((w, i) => (
                <li key={i}>
                  <code className="node-visit__path">{w.path}</code>
                  <Value value={w.before} />
                  <span aria-label="became">→</span>
                  {w.after === undefined ? (
                    <span className="hint">removed</span>
                  ) : (
                    <Value value={w.after} />
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </li>
  );
}

function Reads({ reads, none }: { reads: VisitRead[]; none: string }) {
  if (reads.length === 0) return none ? <p className="hint">{none}</p> : null;
  return (
    <ul className="node-visit__values">
      {reads.map((r) => (
        <li key={r.path} title={`read by ${r.by.join(', ')}`}>
          <code className="node-visit__path">{r.path}</code>
          <span aria-hidden="true">=</span>
          <Value value={r.value} />
        </li>
      ))}
    </ul>
  );
}

/** Longer values open in place: the line shows their start, cut with an ellipsis. */
const SHORT_VALUE = 40;

function Value({ value }: { value: ValueText | null }) {
  if (value === null) return <span className="hint">not known</span>;
  if (value.text.length <= SHORT_VALUE)
    return <code className="node-visit__value">{value.text}</code>;
  return (
    <details className="node-visit__long">
      <summary title={value.text}>
        <code className="node-visit__value">{value.text}</code>
      </summary>
      <pre>
        {value.text}
        {value.cut && '\n(cut here: the value is longer)'}
      </pre>
    </details>
  );
}

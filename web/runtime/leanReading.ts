import type { Flow } from '../../shared/schema.ts';
import type { ContextChange, JournalEntry } from '../../runtime/supervisor/records.ts';
import type { ProcessReading } from './runtimeProtocol.ts';

/**
 * A reading of one process for the inspector that leaves out what the page holds already or
 * does not show: the flows it slept on, when they are the ones the page holds (`flowsKey` names
 * them: the same key, the same contents), and every context change but those since the process
 * last slept written by others, which is all the inspector shows of them (changesSinceSlept). A
 * split into 10,000 branches has a flow of 10,000 nodes and 10,000 changes: each reading copied
 * both to the page again, and the page compared them with what it held, at every reading.
 */
export interface LeanReading extends Omit<ProcessReading, 'flows'> {
  /** The flows, or undefined when they are those the page said it holds. */
  flows: Map<string, Flow> | undefined;
  /** The name of these flows' contents, to hand back next time. */
  flowsKey: string;
}

/**
 * The context changes the inspector shows beside the live context: those written by another
 * than the process (`process`) since its last sleep in `journal` (oldest first), none when the
 * journal read holds no sleep.
 */
export function changesSinceSlept(
  changes: readonly ContextChange[],
  journal: readonly JournalEntry[],
  process: string,
): ContextChange[] {
  const slept = [...journal].reverse().find((e) => e.type === 'waited');
  if (!slept) return [];
  return changes.filter((c) => c.at >= slept.at && c.process !== process);
}

/**
 * A key for a set of flow objects: the same key for the same objects. The runtime hands out one
 * object per flow content (runtime/supervisor/flowCache.ts), so the same key means the same
 * contents.
 */
export function flowsKeyOf(
  flows: ReadonlyMap<string, Flow>,
  serial: (flow: Flow) => string,
): string {
  return [...flows].map(([id, flow]) => `${id}#${serial(flow)}`).join('\n');
}

/** Numbers objects in the order first asked about: one per object for as long as it lives. */
export function serials(): (o: object) => number {
  const known = new WeakMap<object, number>();
  let next = 0;
  return (o) => {
    let n = known.get(o);
    if (n === undefined) known.set(o, (n = ++next));
    return n;
  };
}

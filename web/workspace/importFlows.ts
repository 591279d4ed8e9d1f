import { describeProblem } from '../../shared/describeProblem.ts';
import { parseFlowFile } from '../../shared/parseFlowFile.ts';
import type { Pin } from '../../shared/pins.ts';
import type { Flow } from '../../shared/schema.ts';
import { validateFlow } from '../../shared/validateFlow.ts';

/**
 * Larger files are refused before they are read. Everything an imported flow holds is copied on
 * the page's thread as it is saved and shown, so its size is a frame budget: no flow comes near
 * this (the examples are a few kilobytes; a flow of a thousand nodes is well under a megabyte).
 */
export const MAX_IMPORT_BYTES = 4 * 1024 * 1024;
/**
 * More JSON values than this (objects, arrays, strings, numbers…) are refused after parsing: a
 * megabyte of tiny keys costs the page far more to copy than a megabyte of one string. A flow of
 * 5,000 nodes and 6,000 edges, the largest the canvas is measured drawing (bench, canvas-big), is
 * about 75,000; a fan-out of 10,000 branches into one join, as wide as a process may run by
 * default (the engine's MAX_LIVE_BRANCHES), about 140,000 with its positions.
 */
export const MAX_IMPORT_VALUES = 250_000;

/** A flow that came in but cannot run until its problems are fixed. */
export interface CannotRun {
  id: string;
  name: string;
  /** Each problem as one line, as the problems list shows it. */
  problems: string[];
}

export type ImportResult =
  | {
      ok: true;
      flows: Flow[];
      /** The file's pinned answers, following renamed flows; those for no call are dropped. */
      pins: Pin[];
      renamed: [string, string][];
      warnings: string[];
      cannotRun: CannotRun[];
    }
  | { ok: false; message: string };

const refused = (why: string): ImportResult => ({
  ok: false,
  message: `The file was not imported: ${why}.`,
});

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Why a file of this many bytes is refused before reading, or undefined if it may be read. */
export function tooLarge(bytes: number): ImportResult | undefined {
  if (bytes <= MAX_IMPORT_BYTES) return undefined;
  return refused(
    `the file is ${megabytes(bytes)}; a flow file can be at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB`,
  );
}

/**
 * Reads a `flow/1` or `flows/1` file for the workspace. A refused file changes nothing and says
 * why, naming its first problems. A flow whose id the workspace already has comes in under a new
 * id (`orders` becomes `orders-2`), and the imported flows' sub-flow nodes follow the rename, so
 * nothing already there is ever overwritten. A flow that cannot run comes in (it can be edited),
 * with its problems. Pure, and as safe on hostile text as `parseFlowFile`: the page runs it in a
 * worker (importWorker.ts), the tests in Node.
 */
export function importFlows(text: string, existing: ReadonlySet<string>): ImportResult {
  // A string's length counts UTF-16 units, never more than its UTF-8 bytes: a file that passed
  // the byte check passes this one too; pasted text is held to the same measure.
  const large = tooLarge(text.length);
  if (large) return large;
  const parsed = parseFlowFile(text);
  if (!parsed.ok) {
    const shown = parsed.errors.slice(0, 3).join('; ');
    const more = parsed.errors.length > 3 ? ` (and ${parsed.errors.length - 3} more)` : '';
    return refused(`${shown}${more}`);
  }
  const values = countValues(parsed.flows, MAX_IMPORT_VALUES);
  if (values > MAX_IMPORT_VALUES) {
    return refused(
      `the file holds more than ${MAX_IMPORT_VALUES.toLocaleString('en')} values; ` +
        'no flow needs that many',
    );
  }
  const taken = new Set(existing);
  const rename = new Map<string, string>();
  for (const flow of parsed.flows) {
    let id = flow.id;
    for (let n = 2; taken.has(id); n++) id = `${flow.id}-${n}`;
    taken.add(id);
    if (id !== flow.id) rename.set(flow.id, id);
  }
  const flows = parsed.flows.map((flow) => ({
    ...flow,
    id: rename.get(flow.id) ?? flow.id,
    nodes: flow.nodes.map((n) =>
      n.kind === 'subflow' && rename.has(n.flow) ? { ...n, flow: rename.get(n.flow)! } : n,
    ),
  }));
  const pins = importedPins(parsed.pins, flows, rename);
  return {
    ok: true,
    flows,
    pins: pins.kept,
    renamed: [...rename],
    warnings: [...parsed.warnings, ...pins.dropped],
    cannotRun: cannotRun(flows, existing),
  };
}

/**
 * The file's pins that answer a call of the imported flows, their flow ids renamed as the flows
 * are. A pin for a flow the file does not hold, a node it does not have, or a trigger that is not
 * a call is dropped, with a warning naming it by its place in the file (docs/format.md#pinned-answers).
 */
function importedPins(
  pins: readonly Pin[],
  flows: readonly Flow[],
  rename: ReadonlyMap<string, string>,
): { kept: Pin[]; dropped: string[] } {
  const byId = new Map(flows.map((f) => [f.id, f]));
  const kept: Pin[] = [];
  const dropped: string[] = [];
  pins.forEach((pin, i) => {
    const flow = byId.get(rename.get(pin.flow) ?? pin.flow);
    const node = flow?.nodes.find((n) => n.id === pin.node);
    const call =
      node?.kind === 'continue-after' &&
      node.on.some((t) => t.id === pin.trigger && t.call !== undefined);
    if (!flow) dropped.push(`pins[${i}]: the file has no flow "${pin.flow}"; the pin was dropped`);
    else if (!node)
      dropped.push(`pins[${i}]: flow "${pin.flow}" has no node "${pin.node}"; the pin was dropped`);
    else if (!call)
      dropped.push(
        `pins[${i}]: node "${pin.node}" has no call trigger "${pin.trigger}"; the pin was dropped`,
      );
    else kept.push({ ...pin, flow: flow.id });
  });
  return { kept, dropped };
}

/** The imported flows that cannot run, checked as the designer will check them once in. */
function cannotRun(flows: readonly Flow[], existing: ReadonlySet<string>): CannotRun[] {
  // Sub-flow nodes may call the workspace's flows or each other; only their ids matter here.
  const known = new Map<string, Flow>();
  for (const id of existing) known.set(id, { format: 'flow/1', id, nodes: [], edges: [] });
  for (const flow of flows) known.set(flow.id, flow);
  const out: CannotRun[] = [];
  for (const flow of flows) {
    const problems = validateFlow(flow, { flows: known });
    if (problems.length > 0) {
      out.push({
        id: flow.id,
        name: flow.name ?? flow.id,
        problems: problems.map(describeProblem),
      });
    }
  }
  return out;
}

/** How many JSON values `root` holds, counting stops a little past `limit`. Iterative. */
export function countValues(root: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0 && count <= limit) {
    const value = stack.pop();
    count++;
    if (value === null || typeof value !== 'object') continue;
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child);
  }
  return count;
}

import { addDuration, parseDuration } from '../../shared/duration.ts';
import type { EngineEnv } from './run.ts';
import { flowModel } from './flowModel.ts';
import type { ScopeSnapshot, Snapshot, Wait } from './snapshot.ts';
import type { NodeOf } from '../../shared/schema.ts';

/** A timer trigger of a wait and when it falls due. */
export interface DueTimer {
  seq: number;
  path: string;
  trigger: string;
  due: number;
}

// Durations parsed once per text: every committed step that sleeps computes its due time.
const durations = new Map<string, ReturnType<typeof parseDuration>>();

function durationOf(text: string): ReturnType<typeof parseDuration> {
  if (durations.has(text)) return durations.get(text);
  const parsed = parseDuration(text);
  // Texts come from flows, so the set is small; a bound keeps a hostile workspace from growing it.
  if (durations.size < 1000) durations.set(text, parsed);
  return parsed;
}

/** Every timer the process waits on, earliest first; among equal times, older waits first. */
export function timersOf(snapshot: Snapshot, flows: EngineEnv['flows']): DueTimer[] {
  const out: DueTimer[] = [];
  eachTimer(snapshot.scope, '', flows, (t) => out.push(t));
  // A stable sort keeps listing order for ties: the first trigger listed wins (FORMAT.md §1).
  return out.length > 1 ? out.sort(timerOrder) : out;
}

/** The timer that falls due first (`timersOf(...)[0]`), found without listing and sorting all. */
export function earliestTimer(snapshot: Snapshot, flows: EngineEnv['flows']): DueTimer | undefined {
  let first: DueTimer | undefined;
  eachTimer(snapshot.scope, '', flows, (t) => {
    if (!first || timerOrder(t, first) < 0) first = t;
  });
  return first;
}

/**
 * A wait's timer triggers and their due times, computed once per wait and node: a wait never
 * changes once made (engine/snapshot.ts), and calendar arithmetic for every wait on every wake
 * was most of the cost of timing a process with many waits. A node of another flow version is
 * another object, so a changed flow is never answered from the cache.
 */
const dueCache = new WeakMap<Wait, { node: object; times: { trigger: string; due: number }[] }>();

function dueTimes(wait: Wait, node: NodeOf<'continue-after'>) {
  const known = dueCache.get(wait);
  if (known?.node === node) return known.times;
  const times: { trigger: string; due: number }[] = [];
  for (const t of node.on) {
    const duration = t.timer === undefined ? undefined : durationOf(t.timer);
    if (duration) times.push({ trigger: t.id, due: addDuration(wait.since, duration) });
  }
  dueCache.set(wait, { node, times });
  return times;
}

const timerOrder = (a: DueTimer, b: DueTimer) => a.due - b.due || a.seq - b.seq;

function eachTimer(
  scope: ScopeSnapshot,
  prefix: string,
  flows: EngineEnv['flows'],
  visit: (t: DueTimer) => void,
): void {
  const flow = scope.waits.length > 0 ? flows(scope.flow) : undefined;
  const model = flow ? flowModel(flow) : undefined;
  for (const wait of scope.waits) {
    const node = model?.node(wait.node);
    if (node?.kind !== 'continue-after') continue;
    for (const t of dueTimes(wait, node)) {
      visit({ seq: wait.seq, path: prefix + wait.node, trigger: t.trigger, due: t.due });
    }
  }
  for (const c of scope.children) eachTimer(c.scope, `${prefix}${c.node}/`, flows, visit);
}

/**
 * The timer to fire now, if any: the earliest whose due time is at or before `now` (FORMAT.md,
 * Statuses of a process: a timer is due when its due time is not after the clock, so a `PT0S`
 * timer is due at once). The one rule of what is due, for every caller: a drive, a resume, a
 * retry, a resolution, `wakeDue`.
 */
export function dueTimer(
  snapshot: Snapshot,
  flows: EngineEnv['flows'],
  now: number,
): DueTimer | undefined {
  const first = earliestTimer(snapshot, flows);
  return first && first.due <= now ? first : undefined;
}

/** When a wait's own earliest timer falls due, or null for a wait with no timer. */
export function waitDue(timers: readonly DueTimer[], seq: number): number | null {
  return timers.find((t) => t.seq === seq)?.due ?? null;
}

import { addDuration, parseDuration } from '../../shared/duration.ts';
import type { EngineEnv } from './run.ts';
import { flowModel } from './flowModel.ts';
import { waitIndex, type ScopeSnapshot, type Snapshot, type Wait } from './snapshot.ts';
import type { Flow, NodeOf } from '../../shared/schema.ts';

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
  // A stable sort keeps listing order for ties: the first trigger listed wins (docs/format.md#flows).
  return out.length > 1 ? out.sort(timerOrder) : out;
}

/**
 * The timer that falls due first (`timersOf(...)[0]`), found without listing and sorting all, and
 * once per snapshot: a wake asks it of the same snapshot several times (to time the commit, to
 * pick the next wake, to fire it), and a process with many waits made each ask cost all of them.
 * The answer is kept with the flow object each scope's waits were read from, so a snapshot timed
 * against another version of its flow is timed again.
 */
export function earliestTimer(snapshot: Snapshot, flows: EngineEnv['flows']): DueTimer | undefined {
  const known = earliestCache.get(snapshot);
  if (known && sameFlows(snapshot.scope, flows, known.flows, 0) === known.flows.length)
    return known.first;
  const best: Best = { due: 0, wait: undefined, trigger: '', path: '' };
  const used: (Flow | undefined)[] = [];
  scanTimers(snapshot.scope, '', flows, best, used);
  const first = best.wait
    ? { seq: best.wait.seq, path: best.path, trigger: best.trigger, due: best.due }
    : undefined;
  earliestCache.set(snapshot, { flows: used, first });
  return first;
}

const earliestCache = new WeakMap<
  Snapshot,
  { flows: (Flow | undefined)[]; first: DueTimer | undefined }
>();

/** The earliest timer seen so far in a scan: its due time, wait, trigger and path. */
interface Best {
  due: number;
  wait: Wait | undefined;
  trigger: string;
  path: string;
}

/** `eachTimer` keeping only the earliest (timerOrder; the first listed wins a tie). */
function scanTimers(
  scope: ScopeSnapshot,
  prefix: string,
  flows: EngineEnv['flows'],
  best: Best,
  used: (Flow | undefined)[],
): void {
  if (scope.waits.length > 0) {
    const flow = flows(scope.flow);
    used.push(flow);
    const model = flow ? flowModel(flow) : undefined;
    for (const wait of scope.waits) {
      const node = model?.node(wait.node);
      if (node?.kind !== 'continue-after') continue;
      for (const t of dueTimes(wait, node)) {
        // timerOrder, on what the scan keeps rather than on a DueTimer made for each.
        if (best.wait === undefined || (t.due - best.due || wait.seq - best.wait.seq) < 0) {
          best.due = t.due;
          best.wait = wait;
          best.trigger = t.trigger;
          best.path = prefix + wait.node;
        }
      }
    }
  }
  for (const c of scope.children) scanTimers(c.scope, `${prefix}${c.node}/`, flows, best, used);
}

/**
 * Whether `flows` still gives, scope by scope in scan order, the flow objects a scan used: the
 * count of those that matched, from `at`, so that all of them matching is `used.length`.
 */
function sameFlows(
  scope: ScopeSnapshot,
  flows: EngineEnv['flows'],
  used: readonly (Flow | undefined)[],
  at: number,
): number {
  let i = at;
  if (scope.waits.length > 0) {
    if (flows(scope.flow) !== used[i]) return -1;
    i++;
  }
  for (const c of scope.children) {
    i = sameFlows(c.scope, flows, used, i);
    if (i < 0) return -1;
  }
  return i;
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

/**
 * `earliestTimer` for the snapshots of one run, asked in turn, each made by an act from the one
 * before: the timers are listed and sorted once, then only the waits an act added (numbered
 * from the snapshot's `seq` before it) are timed, and the ones that ended are dropped as they
 * come first. A process with n waits due together asked it once per fire, so scanning every
 * wait's triggers each time cost n² (100 parallel waits). A snapshot with running sub-flows,
 * or another flow object, is timed the ordinary way.
 */
export class RunTimers {
  private timers: DueTimer[] = [];
  private first = 0;
  /** The `seq` of the snapshot last asked about; -1 before the list is made. */
  private seen = -1;
  private flow: Flow | undefined;

  constructor(private readonly flows: EngineEnv['flows']) {}

  earliest(snapshot: Snapshot): DueTimer | undefined {
    const scope = snapshot.scope;
    const flow = scope.waits.length > 0 ? this.flows(scope.flow) : this.flow;
    if (scope.children.length > 0) {
      this.seen = -1;
      return earliestTimer(snapshot, this.flows);
    }
    if (this.seen < 0 || flow !== this.flow) {
      // The waits in order of their numbers, as a step leaves them (see `waitIndex`), or the
      // snapshot is timed the ordinary way.
      if (!inSeqOrder(scope.waits)) {
        this.seen = -1;
        return earliestTimer(snapshot, this.flows);
      }
      this.timers = timersOf(snapshot, this.flows);
      this.first = 0;
      this.flow = flow;
    } else if (snapshot.seq > this.seen) {
      const model = flow ? flowModel(flow) : undefined;
      // The waits an act added are the last of the list (numbered from `seen` on): looked at
      // from the end, so that an act costs what it added, not every wait.
      const waits = scope.waits;
      let from = waits.length;
      while (from > 0 && waits[from - 1]!.seq >= this.seen) from--;
      for (let i = from; i < waits.length; i++) {
        const wait = waits[i]!;
        const node = model?.node(wait.node);
        if (node?.kind !== 'continue-after') continue;
        for (const t of dueTimes(wait, node))
          this.insert({ seq: wait.seq, path: wait.node, trigger: t.trigger, due: t.due });
      }
    }
    this.seen = snapshot.seq;
    while (
      this.first < this.timers.length &&
      waitIndex(scope.waits, this.timers[this.first]!.seq) < 0
    )
      this.first++;
    // The timers fired are dropped now and then, not one by one: a run's list stays as long as
    // what is live, and an insert moves no more than that.
    if (this.first > 32 && this.first * 2 > this.timers.length) {
      this.timers.splice(0, this.first);
      this.first = 0;
    }
    return this.timers[this.first];
  }

  /** After every timer of the same time and wait: a wait's triggers keep their listed order. */
  private insert(timer: DueTimer): void {
    let lo = this.first;
    let hi = this.timers.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (timerOrder(this.timers[mid]!, timer) <= 0) lo = mid + 1;
      else hi = mid;
    }
    this.timers.splice(lo, 0, timer);
  }
}

function inSeqOrder(waits: readonly Wait[]): boolean {
  for (let i = 1; i < waits.length; i++) if (waits[i - 1]!.seq >= waits[i]!.seq) return false;
  return true;
}

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
 * The timer to fire now, if any: the earliest whose due time is at or before `now` (docs/format.md,
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

/**
 * A small benchmark harness: warm-up, then medians of several runs, with peers measured side by
 * side (interleaved rounds in the same process) so that a ratio holds on a noisy machine.
 */

export interface Stats {
  median: number;
  p95: number;
  min: number;
  max: number;
  n: number;
}

/** The value at fraction `p` (0..1) of sorted samples, by the nearest-rank rule. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(p * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

export function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const median =
    n === 0
      ? Number.NaN
      : n % 2 === 1
        ? sorted[(n - 1) / 2]!
        : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
  return {
    median,
    p95: percentile(sorted, 0.95),
    min: sorted[0] ?? Number.NaN,
    max: sorted[n - 1] ?? Number.NaN,
    n,
  };
}

export const median = (samples: readonly number[]): number => stats(samples).median;

type Task = () => unknown;

const isThenable = (x: unknown): x is PromiseLike<unknown> =>
  typeof x === 'object' && x !== null && typeof (x as { then?: unknown }).then === 'function';

/** Runs `fn` for at least `ms` and at least once; runs per second over that slice. */
export async function slice(fn: Task, ms: number): Promise<number> {
  let runs = 0;
  const start = performance.now();
  let elapsed: number;
  do {
    const r = fn();
    // A synchronous peer (XState) is not made to pay for a microtask per run.
    if (isThenable(r)) await r;
    runs++;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return (runs * 1000) / elapsed;
}

/** Times single calls of `fn`: `warmup` untimed calls, then `runs` timed ones (milliseconds). */
export async function sample(fn: Task, runs: number, warmup = Math.max(1, runs >> 2)) {
  for (let i = 0; i < warmup; i++) {
    const r = fn();
    if (isThenable(r)) await r;
  }
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const r = fn();
    if (isThenable(r)) await r;
    out.push(performance.now() - start);
  }
  return out;
}

export interface Contender {
  name: string;
  run: Task;
}

export interface SideBySideOptions {
  /** Untimed rounds first (JIT warm-up); each contender gets its slice in each. */
  warmupRounds?: number;
  rounds?: number;
  /** Time each contender runs in one round (it always completes at least one run). */
  sliceMs?: number;
}

export interface SideBySide {
  /** Runs per second per contender, one figure per round. */
  perRound: Record<string, number[]>;
  opsPerSec: Record<string, Stats>;
}

/**
 * Measures contenders side by side: every round gives each one a time slice, in an order that
 * rotates from round to round, so that a slow spell of the machine falls on all of them.
 */
export async function sideBySide(
  contenders: readonly Contender[],
  options: SideBySideOptions = {},
): Promise<SideBySide> {
  const { warmupRounds = 1, rounds = 7, sliceMs = 250 } = options;
  const perRound: Record<string, number[]> = {};
  for (const c of contenders) perRound[c.name] = [];
  for (let round = 0; round < warmupRounds + rounds; round++) {
    const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
    for (const c of order) {
      // Garbage left by the one before is collected now, not in this one's slice.
      collectGarbage();
      const ops = await slice(c.run, sliceMs);
      if (round >= warmupRounds) perRound[c.name]!.push(ops);
    }
  }
  const opsPerSec: Record<string, Stats> = {};
  for (const c of contenders) opsPerSec[c.name] = stats(perRound[c.name]!);
  return { perRound, opsPerSec };
}

/** The median of per-round ratios a/b: each round's two figures were taken moments apart. */
export function ratio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => x / b[i]!));
}

/**
 * A full collection when Node runs with `--expose-gc` (as `npm run bench` does), so that no
 * contender pays for another's garbage; without the flag, nothing.
 */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Gives the event loop a turn (lets GC and pending I/O settle between measurements). */
export const breathe = () => new Promise<void>((r) => setTimeout(r, 0));

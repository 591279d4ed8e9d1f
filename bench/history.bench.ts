import { assertRunnable, loopFlow } from './flows.ts';
import { sample, stats, type Stats } from './harness.ts';
import { envOf, runFlow, wakeTimer, type Outcome } from './wakeflow.ts';

/**
 * 3. Resume cost against history: one wake (fire the timer, run to the next stop) of a process
 * that has already been round its loop 1, 100 and 10,000 times, on the pure engine. The
 * snapshot after N passes is produced by running them. docs/format.md promises a snapshot as large
 * after 10,000 passes as after one, but for the digits of its counters, so both the time and
 * the bytes should stay flat.
 */

export const HISTORY_PASSES = [1, 100, 10_000] as const;

export interface HistoryPoint {
  passes: number;
  wakeMs: Stats;
  snapshotBytes: number;
}

export interface HistoryResult {
  points: HistoryPoint[];
  /** Median wake time after the most passes divided by that after the fewest. */
  timeFlatness: number;
  /** Snapshot bytes after the most passes divided by those after the fewest. */
  bytesFlatness: number;
}

export async function historyBench(log: (line: string) => void): Promise<HistoryResult> {
  // A loop that never ends within the benchmark.
  const flow = assertRunnable(loopFlow(1_000_000_000));
  const env = envOf([flow]);
  let state: Outcome = await runFlow(flow, { count: 0 }, env);
  let done = 0;
  const snapshots = new Map<number, { state: Outcome; now: number }>();
  log('history: running 10,000 passes …');
  for (const target of HISTORY_PASSES) {
    while (done < target) {
      state = await wakeTimer(state, env);
      done++;
    }
    snapshots.set(target, { state, now: env.now });
  }
  const points: HistoryPoint[] = [];
  // Interleaved: one timed wake of each in turn, so drift of the machine falls on all three.
  const samples = new Map<number, number[]>(HISTORY_PASSES.map((n) => [n, []]));
  for (let round = 0; round < 8; round++) {
    for (const n of HISTORY_PASSES) {
      const { state: s, now } = snapshots.get(n)!;
      const times = await sample(() => wakeTimer(s, { ...env, now }), 25, round === 0 ? 25 : 2);
      if (round > 0) samples.get(n)!.push(...times);
    }
  }
  for (const n of HISTORY_PASSES) {
    const { state: s, now } = snapshots.get(n)!;
    const woke = await wakeTimer(s, { ...env, now });
    if (woke.status !== 'waiting') throw new Error(`history: ${woke.status} after a wake`);
    points.push({
      passes: n,
      wakeMs: stats(samples.get(n)!),
      snapshotBytes: JSON.stringify(s.snapshot).length,
    });
  }
  const first = points[0]!;
  const last = points[points.length - 1]!;
  return {
    points,
    timeFlatness: last.wakeMs.median / first.wakeMs.median,
    bytesFlatness: last.snapshotBytes / first.snapshotBytes,
  };
}

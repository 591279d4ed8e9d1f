import type { CallsResult } from './browser/calls.bench.ts';
import type { CanvasResult } from './browser/canvas.bench.ts';
import type { OpeningResult } from './browser/opening.bench.ts';
import { RUNAWAY_CASE, type TimingResult } from './browser/timing.bench.ts';
import type { WorkbenchResult } from './browser/workbench.bench.ts';
import type { AppAdvanceResult } from './browser/appAdvance.bench.ts';
import type { AppFanOutResult } from './browser/appFanOut.bench.ts';
import type { MemoryResult } from './browser/memory.bench.ts';
import type { BrowserRuntimeResult } from './browser/runtime.bench.ts';
import type { BundleResult } from './bundle.ts';
import type { EngineCase } from './engine.bench.ts';
import type { HistoryResult } from './history.bench.ts';
import type { ResumeResult } from './resume.bench.ts';
import type { ScaleResult } from './scale.bench.ts';
import type { SimulateResult } from './simulate.bench.ts';

/** Everything one `npm run bench` measured; `bench/results.json` holds the latest. */
export interface Results {
  meta: {
    date: string;
    commit: string;
    node: string;
    cpus: number;
    /** The machine's 1-minute load average when the run began and when it ended. */
    load: [number, number];
    chromium: string | null;
    seconds: number;
    /**
     * Sections measured later and merged into this run's file (`npm run bench -- calls
     * --merge`), each with when, where and under what load it ran.
     */
    merged?: MergedRun[];
  };
  engine?: EngineCase[];
  resume?: ResumeResult;
  history?: HistoryResult;
  simulate?: SimulateResult;
  scale?: ScaleResult;
  browser?: BrowserRuntimeResult;
  calls?: CallsResult;
  bundle?: BundleResult;
  canvas?: CanvasResult;
  /** The same measures on a flow of 5,000 nodes and 6,000 edges. */
  canvasBig?: CanvasResult;
  timing?: TimingResult;
  workbench?: WorkbenchResult;
  opening?: OpeningResult;
  advance?: AppAdvanceResult;
  fanout?: AppFanOutResult;
  memory?: MemoryResult;
  goals?: Goal[];
}

export interface MergedRun {
  sections: string[];
  date: string;
  commit: string;
  load: [number, number];
  seconds: number;
}

export interface Goal {
  goal: string;
  measured: string;
  met: boolean;
}

const fmt = (x: number, digits = 0) =>
  Number.isFinite(x)
    ? x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';
/** Three significant figures at most, with thousands separators. */
export const num = (x: number) => {
  if (!Number.isFinite(x)) return 'n/a';
  const a = Math.abs(x);
  return fmt(x, a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
};
const ms = (x: number) => `${num(x)} ms`;
const times = (x: number) => `${num(x)}×`;
const kb = (bytes: number) => `${fmt(bytes / 1000, 1)} kB`;
const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024, 2)} MB`;

/** The goals of the benchmarks issue beside what was measured. */
export function goals(r: Results): Goal[] {
  const out: Goal[] = [];
  const fanout = r.engine?.[0];
  // Against a peer measured in more than one setup, the goal is met against its fastest.
  const fastest = (ratios: Record<string, number>, peer: string) =>
    Math.min(...Object.entries(ratios).flatMap(([k, v]) => (k.startsWith(peer) ? [v] : [])));
  if (r.engine) {
    for (const c of r.engine) {
      const x = fastest(c.ratios, 'xstate');
      out.push({
        goal: `engine at least as fast as XState (${c.flow})`,
        measured: `${times(x)} XState's runs/s`,
        met: x >= 1,
      });
    }
  }
  if (fanout) {
    const b = fastest(fanout.ratios, 'bpmn-engine');
    out.push({
      goal: 'engine at least 20× bpmn-engine on the fan-out and join',
      measured: `${times(b)}`,
      met: b >= 20,
    });
  }
  if (r.opening) {
    out.push({
      goal: `the app opens with ${fmt(r.opening.processes)} processes due in under 2 s of blocked page`,
      measured: `${ms(r.opening.blockedMs)} of long tasks in ${fmt(r.opening.windowMs / 1000)} s`,
      met: r.opening.blockedMs < 2000,
    });
  }
  if (r.scale) {
    const f = r.scale.flatness;
    out.push({
      goal: 'flat cost against processes: a start and an event at 10,000 within 1.5× of 500',
      measured: `start ${times(f.start)}, event ${times(f.event)}`,
      met: f.start <= 1.5 && f.event <= 1.5,
    });
  }
  if (r.resume) {
    const b = fastest(r.resume.ratios, 'bpmn-engine');
    out.push({
      goal: 'persisted resume cycle at least 20× bpmn-engine (the faster of its two setups)',
      measured: `${times(b)}`,
      met: b >= 20,
    });
  }
  if (r.history) {
    const { timeFlatness, bytesFlatness } = r.history;
    out.push({
      goal: 'flat resume cost: a wake after 10,000 passes within 1.5× the time, 1.1× the bytes of one after 1',
      measured: `time ${times(timeFlatness)}, bytes ${times(bytesFlatness)}`,
      met: timeFlatness <= 1.5 && bytesFlatness <= 1.1,
    });
  }
  if (r.simulate) {
    for (const p of [r.simulate.startup, ...r.simulate.cases]) {
      out.push({
        goal: `flow simulate: ${p.name} under ${ms(p.goalMs)}, start-up included`,
        measured: `${ms(p.wallMs.median)} (CPU ${ms(p.cpuMs.median)}, load ${num(p.load)})`,
        met: p.wallMs.median < p.goalMs,
      });
    }
    for (const b of r.simulate.beside ?? []) {
      out.push({
        goal: `flow simulate: ${b.name} within 1.2× a plain interpreter, in process`,
        measured: `${times(b.ratio)} (${ms(b.engineMs.median)} against ${ms(b.plainMs.median)})`,
        met: b.ratio <= 1.2,
      });
    }
  }
  if (r.browser) {
    const w = r.browser.full.wakesPerSec.median;
    out.push({
      goal: `at least 2,000 wakes per second in Chromium (${r.browser.full.processes} due, group commit)`,
      measured: `${num(w)} /s`,
      met: w >= 2000,
    });
  }
  if (r.calls) {
    const c = r.calls;
    out.push(
      {
        goal: `${fmt(c.processes)} processes each making one call: wakes/s in Chromium at least 0.5× the same run's without calls`,
        measured: `${times(c.wakeRatio)} (${num(c.callWakesPerSec.median)} /s with, ${num(c.plainWakesPerSec.median)} /s without)`,
        met: c.wakeRatio >= 0.5,
      },
      {
        goal: "the supervisor's time per attempt at most 1.5× a bare fetch loop's per request",
        measured: `${times(c.attemptRatio)} (${ms(c.supervisorMs.median)} against ${ms(c.fetchMs.median)})`,
        met: c.attemptRatio <= 1.5,
      },
    );
  }
  if (r.browser?.advance) {
    const a = r.browser.advance;
    out.push({
      goal: `a one-minute loop advanced 7 days (${fmt(a.passes)} passes) under 5 s, no task over 100 ms (runtime on the page, no UI)`,
      measured: `${ms(a.ms)}, longest task ${ms(a.longestTaskMs)} (${a.longTasks} over 50 ms)`,
      met: a.ms < 5000 && a.longestTaskMs <= 100,
    });
  }
  if (r.browser?.fanOut) {
    const f = r.browser.fanOut;
    out.push({
      goal: `a process fanning out to ${fmt(f.branches)} branches reaches its join (default bound), no task over 100 ms (runtime on the page, no UI)`,
      measured: `${f.status} in ${ms(f.ms)}, longest task ${ms(f.longestTaskMs)} (${f.longTasks} over 50 ms); the flow's first start ${ms(f.firstStart.ms)}, longest task ${ms(f.firstStart.longestTaskMs)}`,
      met: f.status === 'done' && f.longestTaskMs <= 100,
    });
  }
  if (r.advance) {
    const a = r.advance;
    out.push({
      goal: `in the app, a one-minute loop inspected and advanced ${a.days} days (${fmt(a.passes)} passes) under 5 s, no task over 100 ms on the page`,
      measured: `${ms(a.ms)}, longest task ${ms(a.longestTaskMs)} (${a.longTasks} over 50 ms)`,
      met: a.ms < 5000 && a.longestTaskMs <= 100,
    });
  }
  if (r.fanout) {
    const f = r.fanout;
    out.push({
      goal: `in the app, a process fanning out to ${fmt(f.branches)} branches reaches its join (default bound), no task over 100 ms on the page`,
      measured: `${f.status} in ${ms(f.ms)}, longest task ${ms(f.longestTaskMs)} (${f.longTasks} over 50 ms)`,
      met: f.status === 'done' && f.longestTaskMs <= 100,
    });
  }
  if (r.memory) {
    const m = r.memory;
    const worker = m.many.workerHeap / m.few.workerHeap;
    const page = m.many.pageHeap / m.few.pageHeap;
    out.push(
      {
        goal: `the runtime worker's heap with ${fmt(m.many.processes)} processes asleep within 1.2× (+2 MB) of its heap with ${fmt(m.few.processes)}`,
        measured: `${times(worker)} (${mb(m.many.workerHeap)} against ${mb(m.few.workerHeap)})`,
        met: m.many.workerHeap <= 1.2 * m.few.workerHeap + 2 * 1024 * 1024,
      },
      {
        goal: `the page's heap with ${fmt(m.many.processes)} processes asleep within 1.5× of its heap with ${fmt(m.few.processes)}`,
        measured: `${times(page)} (${mb(m.many.pageHeap)} against ${mb(m.few.pageHeap)})`,
        met: page <= 1.5,
      },
      {
        goal: 'stored bytes per sleeping process under 3 kB',
        measured: `${fmt(Math.round(m.usagePerProcess))} B as the browser counts them; ${fmt(m.recordBytes)} B of records and keys as JSON`,
        met: m.usagePerProcess < 3000 && m.recordBytes < 3000,
      },
    );
  }
  if (r.canvas) {
    const p = r.canvas.pan.workMs.p95;
    out.push({
      goal: '95th-percentile frame under 16.7 ms while panning 1,000 nodes',
      measured: `${ms(p)} (frame work); frame interval p95 ${ms(r.canvas.pan.intervalMs.p95)}`,
      met: p < 16.7,
    });
  }
  if (r.canvasBig) {
    const c = r.canvasBig;
    const size = `${fmt(c.nodes)} nodes and ${fmt(c.edges)} edges`;
    const pan = c.pan.workMs.p95;
    const drag = c.drag.workMs.p95;
    out.push(
      {
        goal: `95th-percentile frame under 16.7 ms while panning and dragging a node among ${size}`,
        measured: `pan ${ms(pan)}, drag ${ms(drag)} (frame work); frame interval p95 pan ${ms(c.pan.intervalMs.p95)}, drag ${ms(c.drag.intervalMs.p95)}`,
        met: pan < 16.7 && drag < 16.7,
      },
      {
        goal: `a flow of ${size} imported and drawn within 1 s`,
        measured: `median ${ms(c.firstRenderMs.median)}, p95 ${ms(c.firstRenderMs.p95)}`,
        met: c.firstRenderMs.p95 < 1000,
      },
    );
  }
  if (r.timing) {
    const worst = (cases: TimingResult['imports'], pick: 'ms' | 'maxFrameGapMs') =>
      cases.reduce((w, c) => (c[pick].max > w[pick].max ? c : w));
    const { imports, runs } = r.timing;
    const slowImport = worst(imports, 'ms');
    const gapImport = worst(imports, 'maxFrameGapMs');
    const slowRun = worst(runs, 'ms');
    const gapRun = worst(runs, 'maxFrameGapMs');
    out.push(
      {
        goal: 'a clear message within 2 s of picking any hostile file',
        measured: `slowest ${ms(slowImport.ms.max)} (${slowImport.case})`,
        met: slowImport.ms.max < 2000,
      },
      {
        goal: 'no frame gap of 100 ms while a hostile file imports',
        measured: `longest ${ms(gapImport.maxFrameGapMs.max)} (${gapImport.case})`,
        met: gapImport.maxFrameGapMs.max < 100,
      },
      {
        goal: 'a hostile run (or the runaway) ends within 2 s of Run',
        measured: `slowest ${ms(slowRun.ms.max)} (${slowRun.case}: ${[...new Set(slowRun.outcomes)].join(' / ')})`,
        met:
          slowRun.ms.max < 2000 &&
          runs.every((c) => c.case !== RUNAWAY_CASE || c.outcomes.every((o) => o === 'failed')),
      },
      {
        goal: 'the page draws throughout a hostile run (no frame gap of 100 ms)',
        measured: `longest ${ms(gapRun.maxFrameGapMs.max)} (${gapRun.case})`,
        met: gapRun.maxFrameGapMs.max < 100,
      },
    );
  }
  if (r.bundle) {
    const g = r.bundle.initial.gzip;
    out.push({
      goal: 'initial JavaScript under 350 kB gzip',
      measured: kb(g),
      met: g < 350_000,
    });
  }
  return out;
}

/** Columns padded to their widest cell; numbers (and the header over them) to the right. */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const right = (c: string) => /^[\d.,×%<>~ -]+( ?(ms|kB|\/s|×|B))?$/.test(c) || c === 'n/a';
  const line = (row: string[]) =>
    row
      .map((c, i) => (i > 0 && right(c) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const [head, ...body] = rows;
  return [line(head!), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** The report printed at the end of a run (and pasted into the README's Performance section). */
export function render(r: Results): string {
  const parts = new Map<ReportSection, string>();
  const add = (key: ReportSection, text: string) => parts.set(key, text);
  if (r.engine) {
    const peers = ['xstate', 'xstate (after + clock)', 'bpmn-engine'];
    const rows = [
      [
        'flow',
        'wakeflow runs/s',
        ...peers.map((p) => `${p} runs/s`),
        'vs xstate',
        'vs bpmn-engine',
      ],
    ];
    for (const c of r.engine) {
      rows.push([
        c.flow,
        num(c.opsPerSec.wakeflow!.median),
        ...peers.map((p) => (c.opsPerSec[p] ? num(c.opsPerSec[p].median) : '-')),
        times(c.ratios.xstate!),
        times(c.ratios['bpmn-engine']!),
      ]);
    }
    add('engine', 'Engine throughput, in memory (runs per second, median)\n\n' + table(rows));
  }
  if (r.resume) {
    const rows = [['setup', 'cycles/s', 'state bytes', 'wakeflow is']];
    for (const [name, s] of Object.entries(r.resume.opsPerSec)) {
      rows.push([
        name,
        num(s.median),
        `${fmt(r.resume.stateBytes[name]!)} B`,
        name === 'wakeflow' ? '' : times(r.resume.ratios[name]!),
      ]);
    }
    add(
      'resume',
      'Persisted resume cycle on fake-indexeddb (load, wake with input, run to the next stop, save)\n\n' +
        table(rows),
    );
  }
  if (r.scale) {
    const rows = [
      [
        'processes',
        'start',
        'event to 1 waiter',
        'next due',
        'records read (start / event / next due)',
      ],
    ];
    for (const p of r.scale.points) {
      rows.push([
        fmt(p.processes),
        ms(p.startMs.median),
        ms(p.eventMs.median),
        ms(p.nextDueMs.median),
        `${fmt(p.reads.start)} / ${fmt(p.reads.event)} / ${fmt(p.reads.nextDue)}`,
      ]);
    }
    const f = r.scale.flatness;
    add(
      'scale',
      `Cost against how many processes exist, on fake-indexeddb (medians; load ${num(r.scale.load)})\n\n` +
        table(rows) +
        `\n\nflatness (10,000 vs 500): start ${times(f.start)}, event ${times(f.event)}, next due ${times(f.nextDue)}`,
    );
  }
  if (r.opening) {
    const o = r.opening;
    const rows = [
      [
        'due processes',
        'blocked (long tasks)',
        'longest task',
        'long tasks',
        'first listed',
        'still due',
        'load',
      ],
      [
        fmt(o.processes),
        ms(o.blockedMs),
        ms(o.longestTaskMs),
        fmt(o.longTasks),
        o.listedMs === null ? 'not in the window' : ms(o.listedMs),
        fmt(o.stillDue),
        num(o.load),
      ],
      ...(o.empty
        ? [
            [
              '0 (empty workspace)',
              ms(o.empty.blockedMs),
              ms(o.empty.longestTaskMs),
              fmt(o.empty.longTasks),
              '',
              '',
              '',
            ],
          ]
        : []),
    ];
    add(
      'opening',
      `Opening the built app with ${fmt(o.processes)} processes due, in Chromium (${fmt(o.windowMs / 1000)} s window)\n\n` +
        table(rows),
    );
  }
  if (r.simulate) {
    const rows = [['case', 'goal', 'wall (median)', 'CPU (median)', 'load']];
    for (const p of [r.simulate.startup, ...r.simulate.cases]) {
      rows.push([p.name, ms(p.goalMs), ms(p.wallMs.median), ms(p.cpuMs.median), num(p.load)]);
    }
    const beside = [['case', 'simulate (median)', 'plain interpreter (median)', 'ratio']];
    for (const b of r.simulate.beside ?? [])
      beside.push([b.name, ms(b.engineMs.median), ms(b.plainMs.median), times(b.ratio)]);
    add(
      'simulate',
      `flow simulate, the whole command (${r.simulate.compiled ? 'compiled' : 'from the sources, through tsx'}; wall and CPU time)\n\n` +
        table(rows) +
        (beside.length > 1
          ? `\n\nIn process, warm, beside a plain unpersisted interpreter of the same scenario (bench/plainInterpreter.ts)\n\n${table(beside)}`
          : ''),
    );
  }
  if (r.history) {
    const rows = [['passes before', 'one wake (median)', 'p95', 'snapshot bytes']];
    for (const p of r.history.points) {
      rows.push([
        fmt(p.passes),
        ms(p.wakeMs.median),
        ms(p.wakeMs.p95),
        `${fmt(p.snapshotBytes)} B`,
      ]);
    }
    add(
      'history',
      'Resume cost against history (pure engine)\n\n' +
        table(rows) +
        `\n\nflatness (10,000 vs 1): time ${times(r.history.timeFlatness)}, bytes ${times(r.history.bytesFlatness)}`,
    );
  }
  if (r.browser) {
    const rows = [
      ['due processes', 'wakes/s (median)', 'round (median)', 'step tx median', 'step tx p95'],
    ];
    for (const f of [r.browser.small, r.browser.full]) {
      rows.push([
        fmt(f.processes),
        num(f.wakesPerSec.median),
        ms(f.roundMs.median),
        ms(f.commitMs.median),
        ms(f.commitMs.p95),
      ]);
    }
    add(
      'browser',
      'Runtime in Chromium on IndexedDB (wake every due process, run each to its next stop)\n\n' +
        table(rows) +
        `\n\n${num(r.browser.full.stepsPerWake)} committed steps per wake`,
    );
  }
  if (r.calls) {
    const c = r.calls;
    const rows = [
      ['measure', 'median', 'p95', 'ratio (median of rounds)'],
      [
        `wakes/s, ${fmt(c.processes)} due, no call`,
        num(c.plainWakesPerSec.median),
        num(c.plainWakesPerSec.p95),
        '',
      ],
      [
        `wakes/s, ${fmt(c.processes)} due, one call each`,
        num(c.callWakesPerSec.median),
        num(c.callWakesPerSec.p95),
        times(c.wakeRatio),
      ],
      ...(c.bareRoundMs && c.floorRatio !== undefined
        ? [
            [
              `the round's ${fmt(c.processes)} requests alone, six in flight (ms)`,
              ms(c.bareRoundMs.median),
              ms(c.bareRoundMs.p95),
              `${times(c.floorRatio)} for a free supervisor`,
            ],
          ]
        : []),
      ['bare fetch loop, per request', ms(c.fetchMs.median), ms(c.fetchMs.p95), ''],
      [
        `supervisor, per attempt (${fmt(c.attempts)} in a row)`,
        ms(c.supervisorMs.median),
        ms(c.supervisorMs.p95),
        times(c.attemptRatio),
      ],
    ];
    add(
      'calls',
      `Calls in Chromium on IndexedDB, to a local server on 127.0.0.1 (load ${num(c.load)})\n\n` +
        table(rows) +
        `\n\n${fmt(c.requests)} requests reached the server`,
    );
  }
  if (r.canvas) add('canvas', canvasTable('Canvas in Chromium', r.canvas));
  if (r.canvasBig) add('canvas-big', canvasTable('Canvas in Chromium, a big flow', r.canvasBig));
  if (r.bundle) {
    const b = r.bundle;
    const rows = [['JavaScript', 'raw', 'gzip', 'chunks']];
    rows.push([
      'initial (entry + static imports)',
      kb(b.initial.bytes),
      kb(b.initial.gzip),
      `${b.initial.chunks.length}`,
    ]);
    rows.push([
      'lazy (dynamic imports)',
      kb(b.lazy.bytes),
      kb(b.lazy.gzip),
      `${b.lazy.chunks.length}`,
    ]);
    rows.push(['CSS', kb(b.css.bytes), kb(b.css.gzip), '']);
    add('bundle', 'Bundle (production build of the app)\n\n' + table(rows));
  }
  if (r.timing) {
    const rows = [
      ['case', 'what happened', 'time to it (median, max)', 'longest frame gap (median, max)'],
    ];
    const row = (c: TimingResult['imports'][number]) => [
      c.case,
      [...new Set(c.outcomes)].join(' / '),
      `${ms(c.ms.median)}, ${ms(c.ms.max)}`,
      `${ms(c.maxFrameGapMs.median)}, ${ms(c.maxFrameGapMs.max)}`,
    ];
    add(
      'timing',
      'Hostile files in Chromium (production build): from picking the file to its message\n\n' +
        table([rows[0]!, ...r.timing.imports.map(row)]) +
        '\n\nand from Run to the end of the run (the runaway: the watchdog ends the worker)\n\n' +
        table([rows[0]!, ...r.timing.runs.map(row)]),
    );
  }
  if (r.workbench) {
    const w = r.workbench;
    const rows = [['component (what it draws)', `idle ${w.idleMs / 1000} s`, 'one wake']];
    const names = new Set([...Object.keys(w.idle.byComponent), ...Object.keys(w.wake.byComponent)]);
    for (const n of [...names].sort())
      rows.push([n, String(w.idle.byComponent[n] ?? 0), String(w.wake.byComponent[n] ?? 0)]);
    rows.push(['all', String(w.idle.total), String(w.wake.total)]);
    add(
      'workbench',
      `Workbench renders, a process of "${w.flow}" inspected (components rendered)\n\n` +
        table(rows),
    );
  }
  if (r.advance) {
    const a = r.advance;
    const rows = [
      ['days', 'passes', 'time', 'longest task on the page', 'tasks over 50 ms'],
      [fmt(a.days), fmt(a.passes), ms(a.ms), ms(a.longestTaskMs), fmt(a.longTasks)],
    ];
    add(
      'advance',
      'A one-minute loop inspected in the app, the clock advanced with "Advance clock" (production build, Chromium)\n\n' +
        table(rows),
    );
  }
  if (r.fanout) {
    const f = r.fanout;
    const rows = [
      ['branches', 'status', 'time', 'longest task on the page', 'tasks over 50 ms'],
      [fmt(f.branches), f.status, ms(f.ms), ms(f.longestTaskMs), fmt(f.longTasks)],
    ];
    add(
      'fanout',
      'A process fanning out to 10,000 branches into one join, started in the app (production build, Chromium)\n\n' +
        table(rows),
    );
  }
  if (r.memory) {
    const m = r.memory;
    const rows = [['processes asleep', "page's heap", "runtime workers' heap", 'stored (browser)']];
    for (const p of [m.few, m.many])
      rows.push([fmt(p.processes), mb(p.pageHeap), mb(p.workerHeap), mb(p.usage)]);
    add(
      'memory',
      'Memory while processes sleep, in the app (production build, Chromium; heaps after a collection, through the DevTools protocol)\n\n' +
        table(rows) +
        `\n\n${fmt(Math.round(m.usagePerProcess))} B stored per process as the browser counts them; one process's records and index keys are ${fmt(m.recordBytes)} B as JSON`,
    );
  }
  // Numbered in one fixed order, whatever order they were measured in, so the README's
  // references ("section 4") hold from run to run.
  const numbered = REPORT_ORDER.filter((k) => parts.has(k)).map(
    (k, i) => `${i + 1}. ${parts.get(k)!}`,
  );
  if (r.goals) numbered.push(`Goals\n\n${table(goalRows(r.goals))}`);
  numbered.push(metaLine(r.meta));
  return numbered.join('\n\n');
}

/** The sections of the report, in the order they are printed. */
export const REPORT_ORDER = [
  'engine',
  'resume',
  'history',
  'simulate',
  'scale',
  'browser',
  'calls',
  'advance',
  'fanout',
  'memory',
  'canvas',
  'canvas-big',
  'bundle',
  'timing',
  'workbench',
  'opening',
] as const;
export type ReportSection = (typeof REPORT_ORDER)[number];

function goalRows(goals: Goal[]): string[][] {
  return [
    ['goal', 'measured', 'met'],
    ...goals.map((g) => [g.goal, g.measured, g.met ? 'yes' : 'NO']),
  ];
}

/** When, where and on what the run was made: the last line of the report. */
export function metaLine(m: Results['meta']): string {
  const merged = (m.merged ?? []).map(
    (x) =>
      `; ${x.sections.join(', ')} measured later and merged in: ${x.date} · commit ${x.commit} · load ${num(x.load[0])} → ${num(x.load[1])} · ${fmt(x.seconds)} s`,
  );
  return `${m.date} · commit ${m.commit} · Node ${m.node} · ${m.cpus} cores · load ${num(m.load[0])} → ${num(m.load[1])} · Chromium ${m.chromium ?? 'n/a'} · ${fmt(m.seconds)} s${merged.join('')}`;
}

/** The canvas section's table, for either size of flow. */
function canvasTable(title: string, c: CanvasResult): string {
  const rows = [['measure', 'median', 'p95']];
  rows.push([
    'time to first render after import',
    ms(c.firstRenderMs.median),
    ms(c.firstRenderMs.p95),
  ]);
  if (c.firstRenderCpuMs)
    rows.push([
      'main-thread CPU of that import',
      ms(c.firstRenderCpuMs.median),
      ms(c.firstRenderCpuMs.p95),
    ]);
  rows.push(['pan: frame work', ms(c.pan.workMs.median), ms(c.pan.workMs.p95)]);
  rows.push(['pan: frame interval', ms(c.pan.intervalMs.median), ms(c.pan.intervalMs.p95)]);
  rows.push(['drag a node: frame work', ms(c.drag.workMs.median), ms(c.drag.workMs.p95)]);
  rows.push([
    'drag a node: frame interval',
    ms(c.drag.intervalMs.median),
    ms(c.drag.intervalMs.p95),
  ]);
  const per = (x: { median: number; max: number }) => [num(x.median), `max ${num(x.max)}`];
  rows.push(['node components rendered per drag frame', ...per(c.nodeRendersPerDragFrame)]);
  rows.push(['node wrappers rendered per drag frame', ...per(c.wrapperRendersPerDragFrame)]);
  rows.push([
    'node elements changed in the DOM per drag frame',
    ...per(c.mutatedNodesPerDragFrame),
  ]);
  return (
    `${title}: ${fmt(c.nodes)} nodes, ${fmt(c.edges)} edges (${fmt(c.nodesDrawn)} drawn at the opening zoom)\n\n` +
    table(rows)
  );
}

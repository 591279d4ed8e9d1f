import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { callsBench } from './browser/calls.bench.ts';
import { canvasBench, HUGE } from './browser/canvas.bench.ts';
import { workbenchBench } from './browser/workbench.bench.ts';
import { appAdvanceBench } from './browser/appAdvance.bench.ts';
import { appFanOutBench } from './browser/appFanOut.bench.ts';
import { memoryBench } from './browser/memory.bench.ts';
import { launchChromium } from './browser/chromium.ts';
import { openingBench } from './browser/opening.bench.ts';
import { browserRuntimeBench } from './browser/runtime.bench.ts';
import { tempDir } from './browser/serve.ts';
import { timingBench } from './browser/timing.bench.ts';
import { bundleBench } from './bundle.ts';
import { engineBench } from './engine.bench.ts';
import { historyBench } from './history.bench.ts';
import { goals, render, type Results } from './report.ts';
import { resumeBench } from './resume.bench.ts';
import { scaleBench } from './scale.bench.ts';
import { simulateBench } from './simulate.bench.ts';

/**
 * `npm run bench`: every benchmark of the benchmarks issue, in one process, then a table on
 * standard output and the figures in bench/results.json. Progress goes to standard error.
 *
 * `npm run bench -- engine resume` runs only the sections named (engine, resume, history,
 * simulate, scale, bundle, browser, calls, canvas, canvas-big, timing, workbench, opening, advance, fanout,
 * memory; the canvas sections, timing, workbench, opening, advance, fanout and memory build the app as bundle does) and
 * prints them without touching results.json, which always holds a full run. With `--merge`,
 * the sections named are written into results.json over that full run's (its goals recomputed,
 * and the merge named in its meta with its own date, commit and load), so that a section added
 * since can be measured on its own without a full run.
 */

/** The sections that open the built app: one build (the bundle section's) serves them all. */
const BUILT = [
  'canvas',
  'canvas-big',
  'timing',
  'workbench',
  'opening',
  'advance',
  'fanout',
  'memory',
] as const;
const SECTIONS = [
  'engine',
  'resume',
  'history',
  'simulate',
  'scale',
  'bundle',
  'browser',
  'calls',
  ...BUILT,
] as const;
type Section = (typeof SECTIONS)[number];

const RESULTS = fileURLToPath(new URL('./results.json', import.meta.url));

function parseArgs(argv: string[]): Set<Section> {
  const named = argv.filter((a) => !a.startsWith('-'));
  for (const n of named) {
    if (!(SECTIONS as readonly string[]).includes(n))
      throw new Error(`unknown section "${n}"; the sections are ${SECTIONS.join(', ')}`);
  }
  return new Set((named.length > 0 ? named : SECTIONS) as Section[]);
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

async function main() {
  const sections = parseArgs(process.argv.slice(2));
  const full = sections.size === SECTIONS.length;
  const started = performance.now();
  const log = (line: string) =>
    process.stderr.write(
      `[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`,
    );

  const dirty = git(['status', '--porcelain']) !== '';
  const results: Results = {
    meta: {
      date: new Date().toISOString(),
      commit: `${git(['rev-parse', '--short', 'HEAD']) || 'unknown'}${dirty ? ' (with local changes)' : ''}`,
      node: process.version,
      cpus: cpus().length,
      load: [loadavg()[0]!, 0],
      chromium: null,
      seconds: 0,
    },
  };

  // In-process benchmarks first, while no browser competes for the two cores.
  if (sections.has('engine')) results.engine = await engineBench(log);
  if (sections.has('resume')) results.resume = await resumeBench(log);
  if (sections.has('history')) results.history = await historyBench(log);
  if (sections.has('simulate')) results.simulate = await simulateBench(log);
  if (sections.has('scale')) results.scale = await scaleBench(log);

  const app = tempDir('app');
  let browser: Browser | undefined;
  try {
    const built = BUILT.some((n) => sections.has(n));
    if (sections.has('bundle') || built) {
      const bundle = await bundleBench(app.dir, log);
      if (sections.has('bundle')) results.bundle = bundle;
    }
    if (sections.has('browser') || sections.has('calls') || built) {
      browser = await launchChromium();
      results.meta.chromium = browser.version();
    }
    if (browser && sections.has('browser'))
      results.browser = await browserRuntimeBench(browser, log);
    // Its page runs in a Chromium of its own, which no DevTools client watches.
    if (sections.has('calls')) results.calls = await callsBench(log);
    if (browser && sections.has('canvas'))
      results.canvas = await canvasBench(browser, app.dir, log);
    if (browser && sections.has('canvas-big'))
      results.canvasBig = await canvasBench(browser, app.dir, log, HUGE);
    if (browser && sections.has('timing'))
      results.timing = await timingBench(browser, app.dir, log);
    if (browser && sections.has('workbench'))
      results.workbench = await workbenchBench(browser, app.dir, log);
    if (browser && sections.has('opening'))
      results.opening = await openingBench(browser, app.dir, log);
    if (browser && sections.has('advance'))
      results.advance = await appAdvanceBench(browser, app.dir, log);
    if (browser && sections.has('fanout'))
      results.fanout = await appFanOutBench(browser, app.dir, log);
    if (browser && sections.has('memory'))
      results.memory = await memoryBench(browser, app.dir, log);
  } finally {
    await browser?.close();
    app.cleanup();
  }

  results.goals = goals(results);
  results.meta.seconds = (performance.now() - started) / 1000;
  results.meta.load[1] = loadavg()[0]!;
  process.stdout.write(`${render(results)}\n`);
  if (full) {
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    log(`wrote ${RESULTS}`);
  } else if (process.argv.includes('--merge')) {
    const base = JSON.parse(readFileSync(RESULTS, 'utf8')) as Results;
    const merged: Results = { ...base };
    for (const [key, value] of Object.entries(results))
      if (key !== 'meta' && key !== 'goals')
        (merged as unknown as Record<string, unknown>)[key] = value;
    merged.meta = {
      ...base.meta,
      merged: [
        ...(base.meta.merged ?? []).filter(
          (m) => !m.sections.every((s) => sections.has(s as Section)),
        ),
        {
          sections: [...sections],
          date: results.meta.date,
          commit: results.meta.commit,
          load: results.meta.load,
          seconds: results.meta.seconds,
        },
      ],
    };
    merged.goals = goals(merged);
    writeFileSync(RESULTS, `${JSON.stringify(merged, null, 2)}\n`);
    log(`merged ${[...sections].join(', ')} into ${RESULTS}`);
  } else {
    log('a partial run: bench/results.json was left as it was');
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});

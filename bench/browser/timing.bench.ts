import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { deepFile, hugeFile } from '../../e2e/fixtures/bad/generate.ts';
import { InspectorPage } from '../../e2e/fixtures/inspectorPage.ts';
import { median } from '../harness.ts';
import { NAME_SHIM } from '../../test-support/reactCommits.ts';
import { installImportProbe, type ImportRecord } from './importProbe.ts';
import { installRunProbe, type RunRecord } from './runProbe.ts';
import { serve, tempDir } from './serve.ts';

/**
 * 7. The promises the tests no longer time (docs/decisions.md, "Limits are settings"), in the
 * production build in Chromium: every file of the hostile corpus (e2e/fixtures/bad) imported
 * with the file input, from picking the file to its message (promised within 2 s, with no
 * frame gap reaching 100 ms); and each corpus file that misbehaves when it runs, with the real
 * runaway (`$distinct` on 99,999 items, which only the watchdog stops), from Run to its end
 * (promised within 2 s, the page drawing throughout). Each is done RUNS times, each in a fresh
 * page; the figures are medians, with the worst.
 */

export interface TimingCase {
  case: string;
  /** What happened, each time: refused / imported, or the status the run ended in. */
  outcomes: string[];
  ms: { median: number; max: number };
  maxFrameGapMs: { median: number; max: number };
}

export interface TimingResult {
  imports: TimingCase[];
  runs: TimingCase[];
}

const RUNS = 3;
const CORPUS = fileURLToPath(new URL('../../e2e/fixtures/bad/', import.meta.url));
const NOT_CORPUS = new Set(['README.md', 'generate.ts']);
const GENERATED: Record<string, () => string> = {
  'huge.flow.json': hugeFile,
  'deep.flow.json': deepFile,
};

/** The runaway's case name: it must end `failed`, by the watchdog, to meet its goal. */
export const RUNAWAY_CASE = 'runaway $distinct';

const RUNAWAY = {
  format: 'flow/1',
  id: 'runaway',
  name: 'Runaway',
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'spin', kind: 'work', set: { n: '$count($distinct([1..99999]))' } },
    { id: 'end', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'spin' },
    { id: 'e2', from: 'spin', to: 'end' },
  ],
};

/** The runs: a file of the corpus (or the runaway) and the name of the flow to start. */
const RUN_CASES: { case: string; text: () => string; flow: string }[] = [
  ...(
    [
      ['pad-bomb.flow.json', 'pad-bomb'],
      ['subflow-calls-itself.flows.json', 'Calls itself'],
      ['range-bomb.flow.json', 'range-bomb'],
      ['recursion-bomb.flow.json', 'recursion-bomb'],
      ['regex-bomb.flow.json', 'Catastrophic regular expression'],
      ['regex-lookaround.flow.json', 'Lookaround regular expression'],
    ] as const
  ).map(([file, flow]) => ({
    case: file,
    text: () => readFileSync(join(CORPUS, file), 'utf8'),
    flow,
  })),
  { case: RUNAWAY_CASE, text: () => JSON.stringify(RUNAWAY), flow: 'Runaway' },
];

const spread = (values: number[]) => ({ median: median(values), max: Math.max(...values) });

function summary(name: string, records: { outcome: string; ms: number; gap: number }[]) {
  return {
    case: name,
    outcomes: records.map((r) => r.outcome),
    ms: spread(records.map((r) => r.ms)),
    maxFrameGapMs: spread(records.map((r) => r.gap)),
  };
}

async function open(
  browser: Browser,
  url: string,
): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await browser.newContext({
    baseURL: url,
    viewport: { width: 1400, height: 900 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  await page.addInitScript({ content: NAME_SHIM });
  return { page, close: () => context.close() };
}

async function importOnce(browser: Browser, url: string, path: string) {
  const { page, close } = await open(browser, url);
  try {
    await page.addInitScript(installImportProbe);
    await new InspectorPage(page).goto();
    await page.getByLabel('Flow file to import').setInputFiles(path);
    const record = await page.evaluate(() =>
      (
        window as unknown as { __importProbe: { record(): Promise<ImportRecord> } }
      ).__importProbe.record(),
    );
    const outcome = /was not imported/.test(record.message) ? 'refused' : 'imported';
    return { outcome, ms: record.messageMs, gap: record.maxGapMs };
  } finally {
    await close();
  }
}

async function runOnce(browser: Browser, url: string, run: (typeof RUN_CASES)[number]) {
  const { page, close } = await open(browser, url);
  try {
    const app = new InspectorPage(page);
    await app.goto();
    await app.importFlows(`${run.flow}.json`, JSON.parse(run.text()));
    await app.startSteppedPastStart(run.flow);
    await page.evaluate(installRunProbe, ['done', 'failed']);
    await app.control('Run').click();
    const record = await page.evaluate(
      () => (window as unknown as { __runProbe: Promise<RunRecord> }).__runProbe,
    );
    return { outcome: record.status, ms: record.ms, gap: record.maxGapMs };
  } finally {
    await close();
  }
}

export async function timingBench(
  browser: Browser,
  appDir: string,
  log: (line: string) => void,
): Promise<TimingResult> {
  const server = await serve(appDir);
  const files = tempDir('timing');
  try {
    const corpus = readdirSync(CORPUS).filter((f) => !NOT_CORPUS.has(f));
    for (const [name, make] of Object.entries(GENERATED)) {
      writeFileSync(join(files.dir, name), make());
      corpus.push(name);
    }
    const imports: TimingCase[] = [];
    for (const file of corpus.sort()) {
      log(`timing: importing ${file} ${RUNS}× …`);
      const path = GENERATED[file] ? join(files.dir, file) : join(CORPUS, file);
      const records = [];
      for (let i = 0; i < RUNS; i++) records.push(await importOnce(browser, server.url, path));
      imports.push(summary(file, records));
    }
    const runs: TimingCase[] = [];
    for (const run of RUN_CASES) {
      log(`timing: running ${run.case} ${RUNS}× …`);
      const records = [];
      for (let i = 0; i < RUNS; i++) records.push(await runOnce(browser, server.url, run));
      runs.push(summary(run.case, records));
    }
    return { imports, runs };
  } finally {
    files.cleanup();
    await server.close();
  }
}

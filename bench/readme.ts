import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from '../shared/zod.ts';
import { metaLine, render, type Results } from './report.ts';

/**
 * `npm run bench:readme`: the figures of docs/performance.md come from one run. It replaces what
 * stands between the two markers there with the goals of bench/results.json (the latest full
 * `npm run bench`) as a table and the run's whole report, and touches nothing else. (The name is
 * from when the figures were in the README.)
 */

/** The page the figures are written to, from the repository's root. */
export const PAGE = 'docs/performance.md';

export const BEGIN =
  '<!-- bench:begin (written by npm run bench:readme from bench/results.json) -->';
export const END = '<!-- bench:end -->';

/** What the page needs of a results file; the rest is passed to the report as it is. */
const ResultsShape = z.looseObject({
  meta: z.looseObject({
    date: z.string(),
    commit: z.string(),
    node: z.string(),
    cpus: z.number(),
    load: z.tuple([z.number(), z.number()]),
    chromium: z.string().nullable(),
    seconds: z.number(),
  }),
  goals: z.array(z.object({ goal: z.string(), measured: z.string(), met: z.boolean() })),
});

export class PerformancePageError extends Error {}

/** Markdown cells cannot hold a bare `|`. */
const cell = (text: string) => text.replaceAll('|', '\\|');

export function benchBlock(results: Results): string {
  const goals = results.goals ?? [];
  const met = goals.filter((g) => g.met).length;
  return [
    BEGIN,
    '',
    `### Goals beside the latest run (${met} of ${goals.length} met)`,
    '',
    '| goal | measured | met |',
    '| --- | --- | --- |',
    ...goals.map((g) => `| ${cell(g.goal)} | ${cell(g.measured)} | ${g.met ? 'yes' : '**no**'} |`),
    '',
    metaLine(results.meta),
    '',
    '### Latest run',
    '',
    '```text',
    render(results),
    '```',
    '',
    END,
  ].join('\n');
}

/** The page with its block between the markers replaced; throws PerformancePageError naming what is wrong. */
export function updatePerformancePage(page: string, resultsJson: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(resultsJson);
  } catch (e) {
    throw new PerformancePageError(`bench/results.json is not JSON: ${(e as Error).message}`);
  }
  const shape = ResultsShape.safeParse(parsed);
  if (!shape.success) {
    const first = shape.error.issues[0]!;
    throw new PerformancePageError(
      `bench/results.json is not the result of a full \`npm run bench\`: ${first.path.join('.') || '(top)'}: ${first.message}`,
    );
  }
  const begin = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (begin < 0 || end < 0 || end < begin)
    throw new PerformancePageError(
      `${PAGE} has no block to replace: it needs the line "${BEGIN}" and, after it, "${END}"`,
    );
  if (page.indexOf(BEGIN, begin + 1) >= 0 || page.indexOf(END, end + 1) >= 0)
    throw new PerformancePageError(`${PAGE} has more than one bench block; keep one`);
  return page.slice(0, begin) + benchBlock(parsed as Results) + page.slice(end + END.length);
}

function main() {
  const pagePath = fileURLToPath(new URL(`../${PAGE}`, import.meta.url));
  const resultsPath = fileURLToPath(new URL('./results.json', import.meta.url));
  try {
    const next = updatePerformancePage(
      readFileSync(pagePath, 'utf8'),
      readFileSync(resultsPath, 'utf8'),
    );
    writeFileSync(pagePath, next);
    process.stderr.write(`${PAGE}: the figures now come from bench/results.json\n`);
  } catch (e) {
    process.stderr.write(`npm run bench:readme: ${(e as Error).message}\n`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();

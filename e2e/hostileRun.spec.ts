import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { InspectorPage } from './fixtures/inspectorPage.ts';

/**
 * The corpus files that import and then misbehave when they run (e2e/fixtures/bad), each run in
 * the app: its node fails with a message that says why, or, for the catastrophic regular
 * expression, completes with the right answer; every other process stays as it was. How soon
 * after Run the message comes, and the longest frame gap meanwhile, are figures of
 * `npm run bench -- timing`. (hostileImport.spec.ts imports every corpus file;
 * runtime/hostileFiles.test.ts runs these in Node.)
 */
const RUNS: {
  file: string;
  flow: string;
  status: 'failed' | 'done';
  says: RegExp;
}[] = [
  {
    file: 'pad-bomb.flow.json',
    flow: 'pad-bomb',
    status: 'failed',
    says: /node "boom": set "x": built a value too large to hold/,
  },
  {
    file: 'subflow-calls-itself.flows.json',
    flow: 'Calls itself',
    status: 'failed',
    says: /at most 16/,
  },
  {
    file: 'range-bomb.flow.json',
    flow: 'range-bomb',
    status: 'failed',
    says: /node "boom": set "x": built a sequence of more than 100,000 items/,
  },
  {
    file: 'recursion-bomb.flow.json',
    flow: 'recursion-bomb',
    status: 'failed',
    // Which guardrail stops it first, depth or time, depends on the engine's stack and speed.
    says: /node "boom": set "x": (went more than 300 calls deep|ran for more than 1 second); is it an endless (recursion|loop)\?/,
  },
  {
    file: 'regex-bomb.flow.json',
    flow: 'Catastrophic regular expression',
    status: 'done',
    says: /"matched": false/,
  },
  {
    file: 'regex-lookaround.flow.json',
    flow: 'Lookaround regular expression',
    status: 'failed',
    says: /\/x\(\?=y\)\/ cannot be used: .*lookarounds/,
  },
];

const bad = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/bad/${file}`, import.meta.url), 'utf8'));

for (const run of RUNS) {
  test(`${run.file}: running it ends ${run.status} with a clear message; the other processes are as they were`, async ({
    page,
  }) => {
    const app = new InspectorPage(page);
    await app.goto();
    const sleeper = await app.start('Nightly refresh', { value: { prices: { read: 0 } } });
    await expect(app.rowStatus(sleeper)).toHaveText('waiting');
    await app.importFlows(run.file, bad(run.file));
    const id = await app.startSteppedPastStart(run.flow);
    await app.runUntil(run.status);
    await expect(app.process).toContainText(run.says);
    await expect(app.rowStatus(id)).toHaveText(run.status);
    await expect(app.rowStatus(sleeper)).toHaveText('waiting');
  });
}

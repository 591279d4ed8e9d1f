import { expect, test } from '@playwright/test';
import { InspectorPage } from './fixtures/inspectorPage.ts';

/**
 * `$distinct` compares every item with every other in one native call: on 99,999 items it runs
 * for seconds, and JSONata's timeout, checked between evaluation steps, never gets a turn.
 */
const runaway = {
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

// @timing: the time to the failure and the frames meanwhile are measured, so it runs alone.
test(
  'rule: an expression no guardrail can stop ends the runtime worker; its node fails, the page never freezes, every process stays stored',
  {
    tag: '@timing',
  },
  async ({ page }) => {
    const app = new InspectorPage(page);
    await app.goto();
    const sleeper = await app.start('Nightly refresh', { value: { prices: { read: 0 } } });
    await expect(app.rowStatus(sleeper)).toHaveText('waiting');
    await app.importFlows('runaway.flow.json', runaway);

    const id = await app.startSteppedPastStart('Runaway');
    const run = await app.runTimed('failed');
    expect(run.ms).toBeLessThan(2000);
    expect(run.longestFrameGap).toBeLessThanOrEqual(100);
    await expect(app.process).toContainText(
      /node "spin": ran for more than 1 second in one call that could not be interrupted/,
    );
    await expect(app.rowStatus(id)).toHaveText('failed');

    // The process asleep meanwhile is as it was, and the new worker runs what comes next.
    await expect(app.rowStatus(sleeper)).toHaveText('waiting');
    const another = await app.start('Nightly refresh', { value: { prices: { read: 5 } } });
    await expect(app.rowStatus(another)).toHaveText('waiting');

    // Retry runs the node again, and it is stopped again: the page still answers.
    await app.inspect(id);
    await app.control('Retry').click();
    await expect(app.process).toContainText(/retried/);
    await expect(app.status).toHaveText('failed');

    await app.reload();
    await expect(app.rowStatus(id)).toHaveText('failed');
    await expect(app.rowStatus(sleeper)).toHaveText('waiting');
    await expect(app.rowStatus(another)).toHaveText('waiting');
  },
);

import { expect, test } from '@playwright/test';
import { setCode } from './fixtures/codeField.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';

/**
 * `$block(ms)` keeps the runtime worker busy for `ms` milliseconds of real time in one call that
 * JSONata's timeout, checked between evaluation steps, never gets a turn to stop: the dev
 * server's app binds it when the page's address asks (`?test=block`, web/runtime/testHooks.ts).
 * A minute is sixty times the watchdog's limit, so the watchdog ends the worker first on a
 * machine of any speed, and the node would end `done` (failing this test) only if it did not.
 * How soon the message comes and how the page draws meanwhile are figures of `npm run bench --
 * timing`, on the real runaway `$distinct`.
 */
const BLOCK_MS = 60_000;
const runaway = {
  format: 'flow/1',
  id: 'runaway',
  name: 'Runaway',
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'spin', kind: 'work', set: { n: `$block(${BLOCK_MS})` } },
    { id: 'end', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'spin' },
    { id: 'e2', from: 'spin', to: 'end' },
  ],
};

test('rule: an expression no guardrail can stop ends the runtime worker; its node fails, the page answers meanwhile, every process stays stored', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto('/?test=block');
  const sleeper = await app.start('Nightly refresh', { value: { prices: { read: 0 } } });
  await expect(app.rowStatus(sleeper)).toHaveText('waiting');
  await app.importFlows('runaway.flow.json', runaway);

  const id = await app.startSteppedPastStart('Runaway');
  await app.control('Run').click();
  // The page's own thread answers while the worker is stuck: a dialog opens and takes typing.
  await app.openStartForm();
  const json = app.startForm.getByLabel('Initial context (JSON)');
  // setCode waits until the editor holds the text: the page took the typing.
  await setCode(json, '{"typed": "while it ran"}');
  // Closed by its button.
  const dialog = page.getByRole('dialog', { name: 'Start a process' });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(app.startForm).toBeHidden();
  await expect(app.status).toHaveText('failed');
  await expect(app.process).toContainText(
    /node "spin": ran for more than 1 second in one call that could not be interrupted; the runtime was restarted and the node failed/,
  );
  await expect(app.rowStatus(id)).toHaveText('failed');

  // The process asleep meanwhile is as it was, and the new worker runs what comes next.
  await expect(app.rowStatus(sleeper)).toHaveText('waiting');
  const another = await app.start('Nightly refresh', { value: { prices: { read: 5 } } });
  await expect(app.rowStatus(another)).toHaveText('waiting');

  // Retry runs the node again, in the new worker (with `$block` bound too), and it is stopped again.
  await app.inspect(id);
  await app.control('Retry').click();
  await expect(app.process).toContainText(/retried/);
  await expect(app.status).toHaveText('failed');

  await app.reload();
  await expect(app.rowStatus(id)).toHaveText('failed');
  await expect(app.rowStatus(sleeper)).toHaveText('waiting');
  await expect(app.rowStatus(another)).toHaveText('waiting');
});

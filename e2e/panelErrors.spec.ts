import { expect, test } from '@playwright/test';
import { WorkbenchPage } from './fixtures/workbenchPage.ts';

// Issue 26, point 11: a render error never blanks the workbench. `?test=fail-panel:Journal` (a
// dev server hook, web/ui/panelTripwire.ts) makes the journal panel throw as it renders.

test('rule: a panel that fails to render says what failed and reloads alone; the rest works, and the error is logged with its component stack', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const logged: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') logged.push(m.text());
  });
  const app = new WorkbenchPage(page);
  await page.goto('/?test=fail-panel:Journal');
  await expect(app.flowName).not.toHaveValue('');
  await app.start.click();

  const failed = app.process.getByRole('alert', { name: 'Journal failed' });
  await expect(failed).toHaveText(
    'The Journal panel failed: the Journal panel was asked to fail (a test hook). The rest of the workbench goes on.Reload Journal',
  );
  // Everything else is drawn and answers: the process, its other panels, the canvas.
  await expect(app.process.getByLabel('Process status')).toHaveText('waiting');
  await expect(app.panel(/^Context/)).toBeVisible();
  await expect(app.panel(/^Snapshot/)).toBeVisible();
  await expect(app.canvas.getByRole('group', { name: /node sleep(:|,|$)/ })).toBeVisible();
  await expect(app.control('Stop')).toBeEnabled();
  // The component stack says where in the workbench the panel was.
  expect(
    logged.some(
      (t) => t.includes('The Journal panel failed to render') && t.includes('at InspectionView'),
    ),
  ).toBe(true);

  await failed.getByRole('button', { name: 'Reload Journal' }).click();
  await expect(failed).toHaveCount(0);
  await expect(app.panel(/^Journal/)).toBeVisible();
  await expect(app.panel(/^Journal/)).toContainText('started on');
});

import { expect, test } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';

test.use({ viewport: { width: 1440, height: 900 } });

test('expressions are edited in a code editor: completion of the flow’s paths and JSONata’s functions, the error marked at its character, problems following the typing, Escape and Tab leave it', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.newFlow();
  await d.addNode('work');
  await d.selectNode('work1');
  await d.properties.getByRole('button', { name: 'Add assignment' }).click();
  await d.fill('order.total', 'Context path', 'Assignment 1');

  const editor = d
    .group('Assignment 1')
    .getByRole('textbox', { name: 'Expression (JSONata)', exact: true });
  await expect(editor).toBeVisible();
  await expect(editor).toHaveAccessibleDescription(/The expression is empty/);

  // A path the flow writes is offered as it is typed, and Enter takes it.
  await editor.click();
  await page.keyboard.type('order.to');
  const completions = page.getByRole('listbox');
  await expect(completions.getByRole('option', { name: /order\.total/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(editor).toHaveText('order.total');
  // So are JSONata's functions, after a $.
  await page.keyboard.type(' + $su');
  await expect(completions.getByRole('option', { name: /^\$sum/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(completions).toHaveCount(0);
  await expect(editor).toBeFocused();

  // Broken while typing: the message under the field, the node's badge and the problems list all
  // say so at once, with the focus still in the editor.
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await expect(editor).toHaveText('order.total + ');
  await expect(editor).toBeFocused();
  await expect(editor).toHaveAccessibleDescription(
    'The expression does not parse: Unexpected end of expression, at character 14',
  );
  await expect(d.node('work1')).toHaveAccessibleName(/work node work1, 1 problem/);
  await expect(
    d.problemList.getByRole('button', { name: /^node "work1": set "order\.total": / }),
  ).toBeVisible();
  // The character it stops at is marked in the text: a point at the end.
  const mark = editor.locator('.cm-lintPoint-error');
  await expect(mark).toHaveCount(1);

  // Fixed by typing: all three follow, before the field loses focus.
  await page.keyboard.type('1');
  await expect(editor).toHaveText('order.total + 1');
  await expect(editor).toBeFocused();
  await expect(editor).not.toHaveAttribute('aria-invalid', 'true');
  await expect(d.node('work1')).not.toHaveAccessibleName(/problem/);
  await expect(d.problemList.getByRole('button', { name: /^node "work1": set/ })).toHaveCount(0);
  // A token in the middle is marked where it is.
  await page.keyboard.type(' )');
  await expect(editor.locator('.cm-lintRange-error')).toHaveText(')');

  // The whole typing session is one undo step: one Ctrl+Z outside the editor takes it back.
  await page.keyboard.press('Escape');
  await expect(d.properties).toBeFocused();
  await page.keyboard.press('Control+z');
  await expect(editor).toHaveText('');

  // Ctrl+Space asks for everything where nothing is typed: the flow's paths and the functions.
  // A click on the label puts the focus in the editor, as it would in an input.
  await d.group('Assignment 1').getByText('Expression (JSONata)', { exact: true }).click();
  await expect(editor).toBeFocused();
  await page.keyboard.press('Control+Space');
  await expect(completions.getByRole('option', { name: /^order\.total/ })).toBeVisible();
  await expect(completions.getByRole('option', { name: /^\$count/ })).toBeVisible();
  await page.keyboard.press('Escape');

  // Tab leaves for the next control: no focus trap.
  await page.keyboard.press('Tab');
  const remove = d.properties.getByRole('button', { name: 'Remove assignment 1' });
  await expect(remove).toBeFocused();

  // The help lists the editor's keys.
  await page.keyboard.press('?');
  await expect(
    d.helpDialog.getByRole('row', { name: /Ctrl\+Space in an expression/ }),
  ).toBeVisible();
});

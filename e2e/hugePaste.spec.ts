import { expect, test } from '@playwright/test';
import { codeText, setCode } from './fixtures/codeField.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';

// Issue 26, point 10: text over the value limit pasted into a code editor is refused at once,
// with the limit's message, before the editor lays any of it out.

test('rule: a paste over the value limit into a JSON field is refused with the limit’s message, and nothing of it is drawn', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.openStartForm();
  const field = app.startForm.getByLabel('Initial context (JSON)');
  await setCode(field, '{"kept": true}');

  // 1.2 million characters of JSON, pasted as Ctrl+V pastes (the event carries the text).
  await field.focus();
  await field.press('ControlOrMeta+a');
  await field.evaluate((el) => {
    const data = new DataTransfer();
    data.setData('text/plain', JSON.stringify({ big: 'x'.repeat(1_200_000) }));
    el.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  });
  await expect(app.startForm.getByRole('alert')).toHaveText(
    'That would make the text 1,200,010 characters; at most 1,000,000 fit in a context, so nothing was pasted',
  );
  // The field holds what it held: one line, never the pasted text laid out.
  expect(await codeText(field)).toBe('{"kept": true}');
  await expect(field.locator('.cm-line')).toHaveCount(1);

  // A paste within the limit goes in, and the message goes.
  await setCode(field, '{"small": 1}');
  await expect(app.startForm.getByRole('alert')).toHaveCount(0);
});

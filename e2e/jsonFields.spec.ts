import { expect, test, type Locator } from '@playwright/test';
import { codeText, setCode } from './fixtures/codeField.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';

// The JSON fields (the start dialog's first context, an event's payload, the inspector's context)
// are CodeMirror editors like the expression fields: named by their labels, their syntax error
// marked at its character as it is typed, the forms' own checks kept, Tab not taken.
const NIGHTLY = 'Nightly refresh';
const T0 = new Date('2026-01-01T00:00:00Z');

test.use({ viewport: { width: 1400, height: 1000 } });

test.beforeEach(async ({ page }) => {
  await page.clock.install({ time: T0 });
});

/** The one error mark in a code field, and the text of the field before it. */
async function markedAt(field: Locator): Promise<{ before: string; marked: string }> {
  const mark = field.locator('.cm-lintRange-error, .cm-lintPoint-error');
  await expect(mark).toHaveCount(1);
  return mark.evaluate((el) => {
    const line = el.closest('.cm-line')!;
    const range = document.createRange();
    range.setStart(line, 0);
    range.setEndBefore(el);
    return { before: range.toString(), marked: el.textContent ?? '' };
  });
}

test('rule: the start dialog’s first context is a JSON editor: its error marked at its character, a start refused with the form’s message, a non-object and an oversized one refused, Tab leaves it', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  const before = await app.rows.count();
  await app.openStartForm();
  await app.startForm.getByLabel('Flow', { exact: true }).selectOption({ label: NIGHTLY });
  const field = app.startForm.getByRole('textbox', { name: 'Initial context (JSON)' });
  await expect(field).toHaveAttribute('aria-multiline', 'true');

  // A token JSON.parse names no position for is marked where it is, while typing.
  await setCode(field, '{"prices": [1,]}');
  await expect(await markedAt(field)).toEqual({ before: '{"prices": [1,', marked: ']' });
  const start = app.startForm.getByRole('button', { name: 'Start process' });
  await start.click();
  await expect(field).toHaveAccessibleDescription(
    /The first context is not valid JSON: line 1, column 15: expected a value/,
  );
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(app.startForm).toBeVisible();

  // Valid JSON that is not an object is the supervisor's to refuse, said in the same place.
  await setCode(field, '[1, 2]');
  await expect(field.locator('.cm-lintRange-error, .cm-lintPoint-error')).toHaveCount(0);
  await start.click();
  await expect(field).toHaveAccessibleDescription(/a context is a JSON object.*got an array/);

  // A context too large to store (1,000,000 characters as JSON at most) never gets into the
  // field: the edit is refused as it is made, with the limit's message (hugePaste.spec.ts).
  const huge = JSON.stringify({ blob: 'x'.repeat(1_000_000) });
  await field.focus();
  await field.press('ControlOrMeta+a');
  await page.keyboard.insertText(huge);
  await expect(
    app.startForm.getByRole('alert').filter({ hasText: 'at most 1,000,000 fit in a context' }),
  ).toHaveText(
    `That would make the text ${huge.length.toLocaleString('en')} characters; at most 1,000,000 fit in a context, so nothing was pasted`,
  );
  expect(await codeText(field)).toBe('[1, 2]');
  await expect(app.startForm).toBeVisible();

  // Enter makes a new line; Tab leaves for the next control, Shift+Tab for the one before.
  await setCode(field, '');
  await page.keyboard.type('{');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"count": 1');
  // Brackets and quotes typed are closed (closeBrackets), and Enter between them indents.
  await expect.poll(() => codeText(field)).toBe('{\n  "count": 1\n}');
  await field.press('Tab');
  await expect(app.startForm.getByLabel('Start paused, to step through it')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(field).toBeFocused();

  // A click on the label puts the focus in the editor, as it would in a textarea.
  await start.focus();
  await app.startForm.getByText('Initial context (JSON)', { exact: true }).click();
  await expect(field).toBeFocused();

  await start.click();
  await expect(app.startForm).toBeHidden();
  await expect(app.rows).toHaveCount(before + 1);
});

test('rule: the inspector’s context and an event’s payload are JSON editors: errors marked at their character, the forms’ messages kept, Tab leaves them', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  const id = await app.start(NIGHTLY, { value: { prices: { read: 0 } } });
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');

  // The live context opens in the editor as it is shown, over several lines.
  const shown = JSON.stringify(await app.context(), null, 2);
  await app.process.getByRole('button', { name: 'Edit context' }).click();
  const context = app.process.getByRole('textbox', { name: 'Context (JSON)' });
  await expect.poll(() => codeText(context)).toBe(shown);
  const save = app.process.getByRole('button', { name: 'Save context' });

  await setCode(context, '{\n  "a": 1,\n}');
  await expect(await markedAt(context)).toEqual({ before: '', marked: '}' });
  await save.click();
  await expect(app.process.getByRole('alert')).toHaveText(
    'Not saved: line 3, column 1: expected a property name in double quotes',
  );
  await expect(context).toHaveAccessibleDescription(/^Not saved: line 3, column 1/);

  await setCode(context, '[]');
  await save.click();
  await expect(app.process.getByRole('alert')).toHaveText('Not saved: a context is a JSON object');
  await context.press('Tab');
  await expect(save).toBeFocused();
  await app.process.getByRole('button', { name: 'Cancel' }).click();

  // The payload of an event: a broken one is marked, and refused with the form's message.
  const form = app.process.getByRole('form', { name: 'Deliver event' });
  const payload = form.getByRole('textbox', { name: 'Payload (JSON)' });
  await setCode(payload, '{"by": tru}');
  await expect(await markedAt(payload)).toEqual({ before: '{"by": ', marked: 'tru' });
  await form.getByRole('button', { name: 'Deliver event' }).click();
  await expect(form).toContainText(
    'The payload is not valid JSON: line 1, column 8: unexpected token',
  );
  await expect(payload).toHaveAccessibleDescription(/^The payload is not valid JSON/);
  await payload.press('Tab');
  await expect(form.getByRole('button', { name: 'Deliver event' })).toBeFocused();
  await expect(app.rowWakes(id)).toHaveText('0');

  // Fixed, it is delivered and lands in the context.
  await app.deliverEvent('prices.changed', { by: 'hand' });
  await expect(app.rowWakes(id)).toHaveText('1');
  expect(await app.context()).toMatchObject({ lastChange: { by: 'hand' } });
});

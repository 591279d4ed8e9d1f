import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { setUpCalls } from './fixtures/calls.ts';
import { codeText, setCode } from './fixtures/codeField.ts';
import { DesignerPage } from './fixtures/designerPage.ts';

test.use({ viewport: { width: 1440, height: 900 } });

/** The serious and critical violations axe finds in the property panel as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('.property-panel').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

const CALL = ['Triggers (on)', 'Call "call"'];

test('a Call is added from the palette by keyboard, drawn with its method and host, its headers, body and retry edited with completion of context paths and secret names, and all of it is there after a reload', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const d = new DesignerPage(page);
  await d.goto();
  // A secret of the workspace, whose name (never its value) the editors offer.
  await setUpCalls(page, 'https://shop.example', { name: 'shop', value: 'never-shown-1234' });
  await d.newFlow();
  await d.flowName.fill('Charge by call');
  await d.flowName.press('Enter');
  // A path the flow writes, for the editors to offer.
  await d.addNode('work');
  await d.properties.getByRole('button', { name: 'Add assignment' }).click();
  await d.fill('order.total', 'Context path', 'Assignment 1');

  // The palette is a toolbar: one stop in the tab order, arrows move, Enter adds. Call sits
  // right after Continue after.
  const first = d.palette.getByRole('button', { name: 'Add Start' });
  await first.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
  await expect(d.palette.getByRole('button', { name: 'Add Call' })).toBeFocused();
  await page.keyboard.press('Enter');
  const node = d.node('call1');
  await expect(node).toBeVisible();
  await expect(node).toContainText('Call');
  await expect(node).toContainText('GET no URL yet');
  // Its empty URL is a problem until it is written, on the node and in the list.
  // Said as the Call it is drawn as, with what the node shows up front.
  await expect(node).toHaveAccessibleName(/^call node call1 \(GET no URL yet\), 1 problem/);

  // Method and URL: the node follows.
  await d.fill('POST', 'Method', ...CALL);
  const url = d.group(...CALL).getByRole('textbox', { name: 'URL (JSONata)', exact: true });
  await setCode(url, "'https://shop.example/api/charge'");
  await expect(node).toContainText('POST shop.example');
  await expect(node).not.toHaveAccessibleName(/problem/);

  // A header, its value completed: `$secret` after a `$`, then the secret's name in the quotes.
  await d
    .group(...CALL)
    .getByRole('button', { name: 'Add header' })
    .click();
  await expect(d.field('Name', ...CALL, 'Header 1')).toBeFocused();
  // A name with a space is kept and shown with its problem, as the problems list says it.
  await d.fill('Auth header', 'Name', ...CALL, 'Header 1');
  await expect(d.field('Name', ...CALL, 'Header 1')).toHaveAccessibleDescription(
    'header "Auth header": not a header name (letters, digits, "-" …)',
  );
  await d.fill('Authorization', 'Name', ...CALL, 'Header 1');
  await expect(d.field('Name', ...CALL, 'Header 1')).not.toHaveAttribute('aria-invalid', 'true');
  const value = d
    .group(...CALL, 'Header 1')
    .getByRole('textbox', { name: 'Value (JSONata)', exact: true });
  await setCode(value, "'Bearer ' & ");
  await page.keyboard.type('$secr');
  const completions = page.getByRole('listbox');
  await expect(completions.getByRole('option', { name: /^\$secret/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(completions.getByRole('option', { name: /^shop/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect.poll(() => codeText(value)).toBe("'Bearer ' & $secret('shop')");
  await page.keyboard.press('Escape');

  // A body, a context path completed in it.
  const body = d
    .group(...CALL)
    .getByRole('textbox', { name: 'Body (JSONata, sent as JSON; optional)', exact: true });
  await setCode(body, "{ 'amount': ");
  await page.keyboard.type('order.to');
  await expect(completions.getByRole('option', { name: /^order\.total/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.type(' }');
  await expect.poll(() => codeText(body)).toBe("{ 'amount': order.total }");
  await page.keyboard.press('Escape');

  // Retry: on with its defaults; a bound past the limit is written and shown where it is.
  await d.check('Retry failed attempts', true, ...CALL);
  const max = d.field('Retries at most (after the first attempt)', ...CALL, 'Retry');
  await expect(max).toHaveValue('3');
  await d.fill('101', 'Retries at most (after the first attempt)', ...CALL, 'Retry');
  await expect(max).toHaveAccessibleDescription(
    'retry max: 101 is more than the 100 retries allowed',
  );
  await expect(
    d.problemList.getByRole('button', { name: /retry max: 101 is more than the 100 retries/ }),
  ).toBeVisible();
  await d.fill('5', 'Retries at most (after the first attempt)', ...CALL, 'Retry');
  await expect(max).not.toHaveAttribute('aria-invalid', 'true');
  await d.fill('PT2S', 'First wait (ISO 8601 duration)', ...CALL, 'Retry');
  await d.fill('429, 503, timeout', 'Retry on (statuses, network, timeout)', ...CALL, 'Retry');

  // The open form is clean for axe, in both themes.
  expect(await seriousViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  expect(await seriousViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });

  // The secret's value is nowhere in the flow.
  const saved = await d.exportFlow();
  expect(saved.text).not.toContain('never-shown-1234');

  await page.reload();
  await d.waitUntilOpen();
  await expect(d.flowName).toHaveValue('Charge by call');
  await expect(d.node('call1')).toContainText('POST shop.example');
  await d.selectNode('call1');
  await expect(d.field('Method', ...CALL)).toHaveValue('POST');
  await expect
    .poll(() => codeText(d.group(...CALL).getByRole('textbox', { name: 'URL (JSONata)' })))
    .toBe("'https://shop.example/api/charge'");
  await expect(d.field('Name', ...CALL, 'Header 1')).toHaveValue('Authorization');
  await expect
    .poll(() =>
      codeText(d.group(...CALL, 'Header 1').getByRole('textbox', { name: 'Value (JSONata)' })),
    )
    .toBe("'Bearer ' & $secret('shop')");
  await expect
    .poll(() =>
      codeText(
        d.group(...CALL).getByRole('textbox', { name: 'Body (JSONata, sent as JSON; optional)' }),
      ),
    )
    .toBe("{ 'amount': order.total }");
  await expect(d.field('Retries at most (after the first attempt)', ...CALL, 'Retry')).toHaveValue(
    '5',
  );
  await expect(d.field('First wait (ISO 8601 duration)', ...CALL, 'Retry')).toHaveValue('PT2S');
  expect(JSON.parse((await d.exportFlow()).text)).toMatchObject({
    nodes: expect.arrayContaining([
      expect.objectContaining({
        id: 'call1',
        on: [
          {
            id: 'call',
            into: 'response1',
            call: {
              method: 'POST',
              url: "'https://shop.example/api/charge'",
              headers: { Authorization: "'Bearer ' & $secret('shop')" },
              body: "{ 'amount': order.total }",
              retry: {
                max: 5,
                interval: 'PT2S',
                backoff: 2,
                maxInterval: 'PT1H',
                on: [429, 503, 'timeout'],
              },
            },
          },
        ],
      }),
    ]),
  });
});

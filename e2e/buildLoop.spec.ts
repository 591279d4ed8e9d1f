import { expect, test } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';
import { focusable, pickByKeys, tabTo } from './fixtures/keyboard.ts';

// The size the issue was measured at.
test.use({ viewport: { width: 1440, height: 900 } });
test.describe.configure({ timeout: 120_000 });

/**
 * The flow: 8 nodes, a loop with a fan-out and a join inside it, closed by a
 * continue-after with two triggers (a timer back round the loop, an event out of it):
 * start → work1 → split1 → (work2, work3) → join1 → wait1 →(timer) work1, wait1 →(event) end.
 */
async function expectTheLoopFlow(d: DesignerPage): Promise<void> {
  await expect(d.nodes()).toHaveCount(8);
  await expect(d.edges()).toHaveCount(9);
  for (const [from, to] of [
    ['start', 'work1'],
    ['work1', 'split1'],
    ['split1', 'work2'],
    ['split1', 'work3'],
    ['work2', 'join1'],
    ['work3', 'join1'],
    ['join1', 'wait1'],
  ])
    await expect(d.edge(from!, to!), `${from} → ${to}`).toHaveCount(1);
  await expect(d.edge('wait1', 'work1')).toHaveAccessibleName(
    /on timer timer.*closes the loop at work1|closes the loop at work1.*on timer timer/,
  );
  await expect(d.edge('wait1', 'end')).toHaveAccessibleName(/on event event1/);
  // The join waits for both branches, from the edges drawn into it: no problem anywhere.
  await expect(d.node('join1')).toHaveAccessibleName('join node join1');
  await expect(d.problems.getByRole('heading')).toHaveText('Problems 0');
}

test('the keyboard alone builds the 8-node loop flow: a skip link to the canvas, focus shown, C and a list to connect, triggers picked by keys', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();

  // The canvas is one stop from the top of the page: the first is the skip link to it.
  const skip = page.getByRole('link', { name: 'Skip to the canvas' });
  expect(await tabTo(page, skip)).toBe(1);

  await tabTo(page, d.newFlowButton);
  await page.keyboard.press('Enter');
  await expect(d.flowName).toHaveValue('New flow');
  await expect(d.node('end')).toBeVisible();
  await tabTo(page, skip, { back: true });
  await page.keyboard.press('Enter');
  await expect(focusable(d.node('start'))).toBeFocused();

  // The new flow's start → end goes: the edge is the stop before the nodes.
  // Focus shows: a ring round the node, the edge drawn in the focus colour.
  const ring = await focusable(d.node('start')).evaluate((el) => {
    const style = getComputedStyle(el);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  expect(ring.style).not.toBe('none');
  expect(ring.width).toBeGreaterThanOrEqual(2);
  const stroke = () =>
    d
      .edge('start', 'end')
      .evaluate((el) => getComputedStyle(el.querySelector('path[marker-end], path')!).stroke);
  const unfocused = await stroke();
  await tabTo(page, d.edge('start', 'end'), { back: true });
  expect(await stroke()).not.toBe(unfocused);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Delete');
  await expect(d.edges()).toHaveCount(0);
  await tabTo(page, focusable(d.node('start')));

  // C on the focused node, a kind typed, Enter: each new node connected and focused in turn.
  await page.keyboard.press('c');
  await pickByKeys(page, d.picker('start'), 'new work', 'New Work node');
  await expect(focusable(d.node('work1'))).toBeFocused();
  await page.keyboard.press('c');
  await pickByKeys(page, d.picker('work1'), 'new fan', 'New Fan-out node');
  await expect(focusable(d.node('split1'))).toBeFocused();
  await page.keyboard.press('c');
  await pickByKeys(page, d.picker('split1'), 'new work', 'New Work node');
  await expect(focusable(d.node('work2'))).toBeFocused();
  await page.keyboard.press('c');
  await pickByKeys(page, d.picker('work2'), 'new join', 'New Join node');
  await expect(focusable(d.node('join1'))).toBeFocused();
  // The second branch: back to the fan-out, a new work node, into the join already there.
  await tabTo(page, focusable(d.node('split1')), { back: true });
  await page.keyboard.press('c');
  await pickByKeys(page, d.picker('split1'), 'new work', 'New Work node');
  await expect(focusable(d.node('work3'))).toBeFocused();
  await page.keyboard.press('c');
  await pickByKeys(page, d.picker('work3'), 'join1', 'join1');
  await expect(focusable(d.node('join1'))).toBeFocused();
  await page.keyboard.press('c');
  await pickByKeys(page, d.picker('join1'), 'new continue', 'New Continue after node');
  await expect(focusable(d.node('wait1'))).toBeFocused();

  // A second trigger, an event, from the properties: Enter selects the node, Tab reaches them.
  await page.keyboard.press('Enter');
  await expect(d.propertiesTitle()).toHaveText('Continue after node wait1');
  await tabTo(page, d.properties.getByRole('button', { name: 'Add event', exact: true }));
  await page.keyboard.press('Enter');
  await expect(d.group('Triggers (on)', 'Event "event1"')).toBeVisible();

  // Back on the canvas: the timer closes the loop at work1, the event leaves it for the end.
  await tabTo(page, focusable(d.node('wait1')), { back: true });
  await page.keyboard.press('c');
  await pickByKeys(page, d.picker('wait1'), 'work1', 'work1', 1);
  await expect(focusable(d.node('work1'))).toBeFocused();
  await tabTo(page, focusable(d.node('wait1')));
  await page.keyboard.press('c');
  await pickByKeys(page, d.picker('wait1'), 'end', 'end', 2);

  await expectTheLoopFlow(d);
});

test('the mouse builds the same flow in 20 actions, not the issue’s about 60: a connection dropped on empty canvas picks and connects each new node', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  // Mouse actions are counted in the comments: [n] is the running total.
  await d.newFlow(); // [1] a click on New flow
  await d.selectEdge('start', 'end'); // [2] a click on the edge, then the Delete key
  await page.keyboard.press('Delete');
  await expect(d.edges()).toHaveCount(0);
  await d.zoomOut(2); // [4] two clicks on Zoom Out, for room

  // Each new node: drag a connection from a handle to empty canvas, drop, click a kind (2 each).
  const start = (await d.node('start').boundingBox())!;
  const canvas = (await d.canvas.boundingBox())!;
  const row = start.y - canvas.y + start.height + 110;
  const add = async (from: string, x: number, y: number, kind: string, id: string) => {
    await d.dropConnection(from, { x, y });
    await d
      .picker(from)
      .getByRole('option', { name: `New ${kind} node` })
      .click();
    await expect(d.edge(from, id)).toHaveCount(1);
  };
  await add('start', 40, row, 'Work', 'work1'); // [6]
  await add('work1', 200, row, 'Fan-out', 'split1'); // [8]
  await add('split1', 360, row - 60, 'Work', 'work2'); // [10]
  await add('work2', 520, row, 'Join', 'join1'); // [12]
  await add('split1', 360, row + 60, 'Work', 'work3'); // [14]
  await d.connect('work3', 'join1'); // [15] a drag from handle to handle
  await add('join1', 680, row, 'Continue after', 'wait1'); // [17]
  // The new node is selected: its second trigger is one click in the panel.
  await expect(d.propertiesTitle()).toHaveText('Continue after node wait1');
  await d.properties.getByRole('button', { name: 'Add event', exact: true }).click(); // [18]
  await d.connect('wait1', 'work1', 'timer'); // [19] from the timer's own handle
  await d.connect('wait1', 'end', 'event1'); // [20] from the event's

  await expectTheLoopFlow(d);
});

test('rule: a node’s source handles are tab stops after it, with a focus ring; Enter or Space on one starts the connection the list finishes (a trigger’s handle with its trigger chosen)', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.newFlow();
  await d.addNode('continue-after');
  await expect(d.node('wait1')).toBeVisible();

  // Tab from the focused node reaches its handle, which shows a ring in the focus colour.
  await focusable(d.node('start')).focus();
  await page.keyboard.press('Tab');
  const handle = d.sourceHandle('start');
  await expect(handle).toBeFocused();
  await expect(handle).toHaveRole('button');
  const ring = await handle.evaluate((el) => {
    const style = getComputedStyle(el);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  expect(ring.style).not.toBe('none');
  expect(ring.width).toBeGreaterThanOrEqual(2);

  // Space opens the list too; Escape dismisses it and gives the focus back to the handle.
  await page.keyboard.press(' ');
  await expect(d.picker('start')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(d.picker('start')).toHaveCount(0);
  await expect(handle).toBeFocused();

  // Enter: the list of the flow's nodes, and the edge it picks is drawn.
  await page.keyboard.press('Enter');
  await pickByKeys(page, d.picker('start'), 'wait1', 'wait1');
  await expect(d.edge('start', 'wait1')).toHaveCount(1);
  await expect(focusable(d.node('wait1'))).toBeFocused();

  // A continue-after: the general handle, then one per trigger, whose list has its trigger chosen.
  await page.keyboard.press('Tab');
  await expect(d.sourceHandle('wait1')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(d.sourceHandle('wait1', 'timer')).toBeFocused();
  await page.keyboard.press('Enter');
  const picker = d.picker('wait1');
  await expect(
    picker.getByRole('combobox', { name: /^Taken when/ }).locator('option:checked'),
  ).toHaveText('trigger timer fires');
  await pickByKeys(page, picker, 'end', 'end');
  await expect(d.edge('wait1', 'end')).toHaveAccessibleName(/on timer timer/);
  await expect(d.edges()).toHaveCount(3);

  // The help lists the handles' keys.
  await page.keyboard.press('?');
  await expect(
    d.helpDialog.getByRole('row', { name: /^Enter or Space on a focused handle/ }),
  ).toBeVisible();
});

import { expect, test } from '@playwright/test';
import { DesignerPage, type FlowFile } from './fixtures/designerPage.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';

// A canvas wide enough for seven nodes side by side; every test starts on a fresh browser context,
// whose workspace holds the examples.
test.use({ viewport: { width: 1600, height: 1000 }, actionTimeout: 20_000 });

/** A flow's nodes without their positions, and its edges without their ids, in a stable order. */
function shape(flow: FlowFile) {
  return {
    nodes: flow.nodes.map(({ position: _position, ...node }) => node),
    edges: flow.edges
      .map(({ id: _id, ...edge }) => edge)
      .sort((a, b) => `${a.from}>${a.to}`.localeCompare(`${b.from}>${b.to}`)),
  };
}

test('draws a flow with every node kind on an empty canvas, connects and fills it, and it can run', async ({
  page,
}) => {
  // The longest drawing of all, step by step: allow for a busy machine.
  test.setTimeout(180_000);
  const d = new DesignerPage(page);
  await d.goto();
  await d.newFlow();

  // A new flow has a start, an end and an edge between them: delete them with the keyboard.
  await expect(d.edge('start', 'end')).toHaveCount(1);
  await d.selectNode('start');
  await page.keyboard.press('Delete');
  await expect(d.node('start')).toHaveCount(0);
  await expect(d.edges()).toHaveCount(0);
  await d.selectNode('end');
  await page.keyboard.press('Backspace');
  await expect(d.nodes()).toHaveCount(0);
  await expect(d.problems).toContainText('the flow has no start node');
  // A new flow opens at zoom 1: four steps out reach the least zoom (0.5), room for seven nodes.
  await d.zoomOut(4);

  // Each kind from the palette: a click adds it at the centre, selected; drag it into place.
  await d.addNode('start');
  await expect(d.propertiesTitle()).toHaveText('Start node start1');
  await d.moveNode('start1', { x: 50, y: 260 });
  await d.addNode('work');
  await d.moveNode('work1', { x: 180, y: 260 });
  await d.addNode('fanout');
  await d.moveNode('split1', { x: 360, y: 260 });
  await d.addNode('subflow');
  await d.moveNode('sub1', { x: 480, y: 120 });
  await d.addNode('continue-after');
  await d.moveNode('wait1', { x: 480, y: 380 });
  // The join is dragged from the palette and dropped where it goes.
  await d.dropNode('join', { x: 640, y: 240 });
  await expect(d.propertiesTitle()).toHaveText('Join node join1');
  await d.addNode('end');
  await d.moveNode('end1', { x: 780, y: 420 });
  await expect(d.nodes()).toHaveCount(7);
  for (const id of ['start1', 'work1', 'split1', 'sub1', 'wait1', 'join1', 'end1'])
    await expect(d.node(id)).toBeInViewport();

  // Edges, drawn with the mouse from a source handle to a target handle.
  await d.connect('start1', 'work1');
  await d.connect('work1', 'split1');
  await d.connect('split1', 'sub1');
  await d.connect('split1', 'wait1');
  await d.connect('sub1', 'join1');
  await d.connect('join1', 'end1');

  // The work node: a label and an assignment with a JSONata expression.
  await d.selectNode('work1');
  await d.fill('Order total', 'Label');
  await d.properties.getByRole('button', { name: 'Add assignment' }).click();
  await d.fill('order.total', 'Context path', 'Assignment 1');
  await d.fill('$sum(order.lines.(price * qty))', 'Expression (JSONata)', 'Assignment 1');
  await expect(d.node('work1')).toHaveAccessibleName('work node work1: Order total');
  const assignment = d
    .node('work1')
    .getByRole('list', { name: 'Assignments' })
    .getByRole('listitem');
  await expect(assignment).toContainText('order.total');
  await expect(assignment).toContainText('$sum(order.lines.(price * qty))');

  // The continue-after: its timer renamed and set, an event and a human trigger with a field.
  await d.selectNode('wait1');
  await d.fill('daily', 'Trigger id', 'Triggers (on)', 'Timer "timer"');
  await d.fill('PT24H', 'Wait for (ISO 8601 duration)', 'Triggers (on)', 'Timer "daily"');
  await expect(d.group('Triggers (on)', 'Timer "daily"')).toContainText('24 hours');
  await d.properties.getByRole('button', { name: 'Add event' }).click();
  await d.fill('prices.changed', 'Event name', 'Triggers (on)', 'Event "event1"');
  await d.fill(
    'lastChange',
    'Write the payload into (optional)',
    'Triggers (on)',
    'Event "event1"',
  );
  await d.properties.getByRole('button', { name: 'Add human' }).click();
  const human = ['Triggers (on)', 'Human "approval1"'];
  await d.fill('Go on with the refresh?', 'Prompt', ...human);
  await d.fill('decision', 'Write the input into', ...human);
  await d
    .group(...human, 'Form fields')
    .getByRole('button', { name: 'Add field' })
    .click();
  await d.fill('score', 'Field 2 name', ...human, 'Form fields');
  await d.field('Field 2 type', ...human, 'Form fields').selectOption('number');
  await d.fill('Score out of ten', 'Field 2 label (optional)', ...human, 'Form fields');
  const triggers = d.node('wait1').getByRole('list', { name: 'Triggers' }).getByRole('listitem');
  await expect(triggers).toHaveCount(3);
  await expect(triggers.nth(0)).toContainText('24 hours');
  await expect(triggers.nth(1)).toContainText('prices.changed');
  await expect(triggers.nth(2)).toContainText('Go on with the refresh?');

  // An edge drawn from the timer's own handle is taken only when that trigger fires.
  await d.connect('wait1', 'join1', 'daily');
  await expect(d.edge('wait1', 'join1')).toHaveAccessibleName(/, on \w+ daily/);

  // The sub-flow calls a flow of the workspace; the join waits for both branches.
  await d.selectNode('sub1');
  await d.field('Calls flow').selectOption({ label: 'Enrich (enrich)' });
  await expect(d.node('sub1')).toContainText('calls enrich');
  await expect(d.node('sub1').getByRole('button', { name: 'Open enrich' })).toBeVisible();
  await d.selectNode('join1');
  await d.check('sub1', true, 'Waits for (depends)');
  await d.check('wait1', true, 'Waits for (depends)');
  await expect(
    d.node('join1').getByRole('list', { name: 'Waits for' }).getByRole('listitem'),
  ).toHaveText(['sub1', 'wait1']);

  // The end terminates the whole process; the edge into it has a condition.
  await d.selectNode('end1');
  await d.check('Terminate the whole process', true);
  await expect(d.node('end1')).toContainText('terminate');
  await d.selectEdge('join1', 'end1');
  await d.fill('order.total > 100', 'Condition (when, JSONata)');
  await expect(d.edge('join1', 'end1')).toHaveAccessibleName(
    'Edge from join1 to end1, when order.total > 100',
  );

  // Nothing is wrong: the flow can run.
  await expect(d.problems.getByRole('heading')).toHaveText('Problems 0');
  await expect(d.noProblems).toBeVisible();
  await expect(d.nodes()).toHaveCount(7);
  await expect(d.edges()).toHaveCount(7);

  // The file says exactly what was drawn.
  const { flow: exported } = await d.exportFlow();
  expect(exported.format).toBe('flow/1');
  for (const node of exported.nodes) expect(node.position).toBeDefined();
  expect(new Set(exported.edges.map((e) => e.id)).size).toBe(7);
  expect(shape(exported)).toEqual({
    nodes: [
      { id: 'start1', kind: 'start' },
      {
        id: 'work1',
        kind: 'work',
        label: 'Order total',
        set: { 'order.total': '$sum(order.lines.(price * qty))' },
      },
      { id: 'split1', kind: 'fanout' },
      { id: 'sub1', kind: 'subflow', flow: 'enrich' },
      {
        id: 'wait1',
        kind: 'continue-after',
        on: [
          { id: 'daily', timer: 'PT24H' },
          { id: 'event1', event: 'prices.changed', into: 'lastChange' },
          {
            id: 'approval1',
            human: {
              prompt: 'Go on with the refresh?',
              fields: [
                { name: 'approved', type: 'boolean', label: 'Approved' },
                { name: 'score', type: 'number', label: 'Score out of ten' },
              ],
            },
            into: 'decision',
          },
        ],
      },
      { id: 'join1', kind: 'join', depends: ['sub1', 'wait1'] },
      { id: 'end1', kind: 'end', terminate: true },
    ],
    edges: [
      { from: 'join1', to: 'end1', when: 'order.total > 100' },
      { from: 'split1', to: 'sub1' },
      { from: 'split1', to: 'wait1' },
      { from: 'start1', to: 'work1' },
      { from: 'sub1', to: 'join1' },
      { from: 'wait1', to: 'join1', trigger: 'daily' },
      { from: 'work1', to: 'split1' },
    ],
  });
});

test('a broken expression shows under its field, on its node and in the problems list, until it is fixed', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.newFlow();
  await expect(d.noProblems).toBeVisible();
  await d.addNode('work');
  // Below the start (which a new flow shows at zoom 1), not over it: the start is clicked later.
  await d.moveNode('work1', { x: 360, y: 300 });
  await d.connect('start', 'work1');
  await d.selectNode('work1');
  // The panel has switched to the node (and laid out its fields) before its button is clicked.
  await expect(d.propertiesTitle()).toHaveText('Work node work1');
  await d.properties.getByRole('button', { name: 'Add assignment' }).click();
  await d.fill('count', 'Context path', 'Assignment 1');

  // Checked as it is typed: the error shows under the field, and at once, with no Enter and
  // no leaving the field, on the node and in the problems list too.
  const expression = d.field('Expression (JSONata)', 'Assignment 1');
  await expression.fill('count +');
  await expect(expression).toHaveAttribute('aria-invalid', 'true');
  await expect(expression).toHaveAccessibleDescription(/^The expression does not parse: /);
  await expect(expression).toBeFocused();
  const problem = d.problemList.getByRole('button', {
    name: /^node "work1": set "count": the expression does not parse: /,
  });
  await expect(problem).toBeVisible();
  await expect(expression).toBeFocused();
  await expression.press('Enter');
  await expect(d.problemList.getByRole('listitem')).toHaveCount(1);
  await expect(d.problems.getByRole('heading')).toHaveText('Problems 1');
  await expect(d.noProblems).toBeHidden();
  await expect(d.node('work1')).toHaveAccessibleName('work node work1, 1 problem');
  await expect(d.node('work1')).toContainText(
    /1 problem: set "count": the expression does not parse/,
  );

  // Clicking the problem selects the node it is on.
  await d.selectNode('start');
  await expect(d.propertiesTitle()).toHaveText('Start node start');
  await problem.click();
  await expect(d.propertiesTitle()).toHaveText('Work node work1');
  await expect(expression).toHaveText('count +');
  await expect(expression).toHaveAccessibleDescription(/does not parse/);

  // Fixed, it goes: from the field, the node and the list.
  await d.fill('count + 1', 'Expression (JSONata)', 'Assignment 1');
  await expect(expression).not.toHaveAttribute('aria-invalid');
  await expect(d.noProblems).toBeVisible();
  await expect(d.problems.getByRole('heading')).toHaveText('Problems 0');
  await expect(d.node('work1')).toHaveAccessibleName('work node work1');
});

test('undo and redo with Ctrl+Z, Ctrl+Shift+Z and the toolbar: a node added, a move, a property edit in one step', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  const undo = d.toolbar.getByRole('button', { name: 'Undo' });
  const redo = d.toolbar.getByRole('button', { name: 'Redo' });
  await d.goto();
  await d.newFlow();
  await expect(undo).toBeDisabled();
  await expect(redo).toBeDisabled();

  await d.addNode('work');
  await expect(d.node('work1')).toBeVisible();
  await expect(d.nodes()).toHaveCount(3);
  await expect(undo).toBeEnabled();

  await page.keyboard.press('Control+Z');
  await expect(d.node('work1')).toHaveCount(0);
  await expect(d.nodes()).toHaveCount(2);
  await expect(redo).toBeEnabled();
  await page.keyboard.press('Control+Shift+Z');
  await expect(d.node('work1')).toBeVisible();
  await expect(redo).toBeDisabled();

  await undo.click();
  await expect(d.node('work1')).toHaveCount(0);
  await redo.click();
  await expect(d.node('work1')).toBeVisible();
  await expect(d.nodes()).toHaveCount(3);

  // A drag is one step, however many moves it took.
  await d.moveNode('work1', { x: 300, y: 120 });
  const moved = await d.node('work1').boundingBox();
  await d.moveNode('work1', { x: 500, y: 300 });
  await expect.poll(async () => (await d.node('work1').boundingBox())?.x).not.toBe(moved?.x);
  await page.keyboard.press('Control+Z');
  await expect.poll(async () => d.node('work1').boundingBox()).toEqual(moved);

  // Typing a label, a keystroke at a time, is one edit: one undo takes it all back.
  await d.selectNode('work1');
  const label = d.field('Label');
  await label.pressSequentially('Compute total');
  await label.press('Enter');
  // (Nothing leads to it yet: it carries a warning.)
  await expect(d.node('work1')).toHaveAccessibleName('work node work1: Compute total, 1 warning');
  await d.selectNode('work1'); // back on the canvas, out of the text field
  await page.keyboard.press('Control+Z');
  await expect(d.node('work1')).toHaveAccessibleName('work node work1, 1 warning');
  await expect(label).toHaveValue('');
  await expect(d.nodes()).toHaveCount(3);
  await page.keyboard.press('Control+Shift+Z');
  await expect(d.node('work1')).toHaveAccessibleName('work node work1: Compute total, 1 warning');
  await expect(label).toHaveValue('Compute total');
});

test('a reload opens the same flow with the same nodes, edges and fields', async ({ page }) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.newFlow();

  // Replace the edge start → end by start → work1 → end, and fill the work node.
  await d.selectEdge('start', 'end');
  await page.keyboard.press('Delete');
  await expect(d.edges()).toHaveCount(0);
  await d.addNode('work');
  // Right of the start and below the end, so that the flow still fits the canvas at the zoom a
  // flow opens at (never below the readable zoom) and every node is in view after the reload.
  await d.moveNode('work1', { x: 500, y: 300 });
  await d.connect('start', 'work1');
  await d.connect('work1', 'end');
  await d.fill('Compute', 'Label');
  await d.properties.getByRole('button', { name: 'Add assignment' }).click();
  await d.fill('total', 'Context path', 'Assignment 1');
  await d.fill('price * qty', 'Expression (JSONata)', 'Assignment 1');
  await d.addNode('continue-after');
  await d.moveNode('wait1', { x: 760, y: 300 });
  await d.fill('PT30M', 'Wait for (ISO 8601 duration)', 'Triggers (on)', 'Timer "timer"');
  await expect(d.group('Triggers (on)', 'Timer "timer"')).toContainText('30 minutes');

  // Renaming the flow saves it at once, with everything drawn so far; the list shows the new
  // name once the save is done.
  await d.flowName.fill('Saved across reloads');
  await d.flowName.press('Enter');
  await expect(d.flowLink('Saved across reloads')).toBeVisible();
  const before = await d.exportFlow();

  await page.reload();
  await d.waitUntilOpen();
  await expect(d.flowName).toHaveValue('Saved across reloads');
  await expect(d.nodes()).toHaveCount(4);
  await expect(d.node('work1')).toHaveAccessibleName('work node work1: Compute');
  await expect(d.edges()).toHaveCount(2);
  await expect(d.edge('start', 'work1')).toHaveCount(1);
  await expect(d.edge('work1', 'end')).toHaveCount(1);
  await expect(d.edge('start', 'end')).toHaveCount(0);
  await d.selectNode('work1');
  await expect(d.field('Label')).toHaveValue('Compute');
  await expect(d.field('Context path', 'Assignment 1')).toHaveValue('total');
  await expect(d.field('Expression (JSONata)', 'Assignment 1')).toHaveText('price * qty');
  await d.selectNode('wait1');
  await expect(
    d.field('Wait for (ISO 8601 duration)', 'Triggers (on)', 'Timer "timer"'),
  ).toHaveValue('PT30M');
  // Positions too: the flow's file is the same as before the reload.
  expect((await d.exportFlow()).text).toBe(before.text);
});

test('export a flow and import it again: it comes in under a new id, identical; paste imports, a broken file is refused', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.openFlow('Order with approval and a timeout');
  await expect(d.flowId).toHaveText('id: order-approval');
  const original = await d.exportFlow();
  expect(original.name).toBe('order-approval.flow.json');
  expect(original.flow).toMatchObject({ format: 'flow/1', id: 'order-approval' });
  const names = await d.flowNames();

  // The file picker: the id is taken, so the flow comes in as a new one and opens.
  await d.importFile(original.name, original.text);
  await expect(d.importNotice()).toContainText(
    '"order-approval" came in as "order-approval-2" (that id was taken)',
  );
  await expect(d.flowId).toHaveText('id: order-approval-2');
  await expect(d.flowName).toHaveValue('Order with approval and a timeout');
  await expect(d.flowItems()).toHaveCount(names.length + 1);
  // Two flows of one name: the list tells them apart by their ids.
  await expect(d.flowLink('Order with approval and a timeout (order-approval)')).toHaveCount(1);
  await expect(d.flowLink('Order with approval and a timeout (order-approval-2)')).toHaveCount(1);
  // It opens readable, around its start: fit it to see every node.
  await d.fitView();
  await expect(d.nodes()).toHaveCount(original.flow.nodes.length);
  await expect(d.noProblems).toBeVisible();

  // Exported again it is the same file, byte for byte, but for its id.
  const again = await d.exportFlow();
  expect(again.name).toBe('order-approval-2.flow.json');
  expect(again.flow).toEqual({ ...original.flow, id: 'order-approval-2' });
  expect(again.text).toBe(
    original.text.replace('"id": "order-approval"', '"id": "order-approval-2"'),
  );

  // The original is still there, untouched.
  await d.flowLink('Order with approval and a timeout (order-approval)').click();
  await expect(d.flowId).toHaveText('id: order-approval');
  expect((await d.exportFlow()).text).toBe(original.text);

  // Pasting a flow's JSON anywhere but a text field imports it.
  const pasted = { ...original.flow, id: 'pasted-order', name: 'Pasted order' };
  await d.paste(JSON.stringify(pasted));
  await expect(d.importNotice()).toContainText('Imported Pasted order.');
  await expect(d.flowName).toHaveValue('Pasted order');
  await expect(d.flowId).toHaveText('id: pasted-order');
  expect((await d.exportFlow()).flow).toEqual(pasted);

  // A broken file is refused: the workspace stays exactly as it was, and the message says why.
  const listed = await d.flowNames();
  expect(listed).toHaveLength(names.length + 2);
  await d.importFile('broken.flow.json', '{ "format": "flow/1", "id": "broken", "nodes": [');
  await expect(d.importAlert()).toContainText(/^broken\.flow\.json: The file was not imported: /);
  await expect(d.importAlert()).toContainText('line 1, column 49');
  expect(await d.flowNames()).toEqual(listed);
  await expect(d.flowName).toHaveValue('Pasted order');

  // So is a file that is JSON but not a flow: the message names the first problem.
  await d.importFile(
    'teleport.flow.json',
    JSON.stringify({ ...pasted, id: 'teleport', nodes: [{ id: 'x', kind: 'teleport' }] }),
  );
  await expect(d.importAlert()).toContainText('nodes[0].kind: unknown kind "teleport"');
  expect(await d.flowNames()).toEqual(listed);
  await expect(d.flowName).toHaveValue('Pasted order');
});

test('copy and paste give new ids, duplicate copies the selection; the help lists the shortcuts', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.newFlow();
  await d.zoomOut(3);
  await d.addNode('work');
  await d.moveNode('work1', { x: 150, y: 100 });
  await d.properties.getByRole('button', { name: 'Add assignment' }).click();
  await d.fill('n', 'Context path', 'Assignment 1');
  await d.fill('n + 1', 'Expression (JSONata)', 'Assignment 1');

  // Ctrl+C, Ctrl+V: a copy with a new id and the same fields, selected.
  await d.selectNode('work1');
  await page.keyboard.press('Control+C');
  await page.keyboard.press('Control+V');
  await expect(d.node('work2')).toBeVisible();
  await expect(d.propertiesTitle()).toHaveText('Work node work2');
  await expect(d.field('Context path', 'Assignment 1')).toHaveValue('n');
  await expect(d.field('Expression (JSONata)', 'Assignment 1')).toHaveText('n + 1');
  await expect(d.node('work1')).toBeVisible();

  // Ctrl+D duplicates the selection.
  await page.keyboard.press('Control+D');
  await expect(d.node('work3')).toBeVisible();
  await expect(d.propertiesTitle()).toHaveText('Work node work3');
  await expect(d.nodes()).toHaveCount(5);

  // Two nodes and the edge between them: the copy's edge joins the copies, under a new id.
  await d.selectNode('start');
  await d.selectNode('end', ['Shift']);
  await expect(d.properties).toContainText('2 items are selected');
  await page.keyboard.press('Control+C');
  await page.keyboard.press('Control+V');
  await expect(d.nodes()).toHaveCount(7);
  await expect(d.edge('start1', 'end1')).toHaveCount(1);
  await expect(d.edge('start', 'end')).toHaveCount(1);
  await expect(d.problemList).toContainText('a second start node');
  await d.selectEdge('start1', 'end1');
  await expect(d.field('Id')).toHaveValue('e2');

  // "?" opens the help, Escape closes it.
  await page.keyboard.press('?');
  await expect(d.helpDialog).toBeVisible();
  for (const [keys, what] of [
    ['Ctrl+Z', 'undo'],
    ['Ctrl+Shift+Z or Ctrl+Y', 'redo'],
    ['Ctrl+C, Ctrl+V', 'copy and paste (pasted nodes get new ids)'],
    ['Ctrl+D', 'duplicate the selection'],
    [
      'Delete or Backspace',
      'delete the node or edge focused from the keyboard, or else the selection',
    ],
    ['?', 'this help'],
  ])
    await expect(
      d.helpDialog.getByRole('row', { name: `${keys} ${what}`, exact: true }),
    ).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(d.helpDialog).toBeHidden();
  await d.toolbar.getByRole('button', { name: 'Help' }).click();
  await expect(d.helpDialog).toBeVisible();
  await d.helpDialog.getByRole('button', { name: 'Close' }).click();
  await expect(d.helpDialog).toBeHidden();
});

test('validation for designers: a node nothing leads to is a warning that does not stop a run; a join waits for the edges drawn into it; problems name edges by their ends', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.newFlow();
  await expect(d.noProblems).toBeVisible();

  // A node no edge leads to never runs: a warning on it and in the list, not a problem.
  await d.addNode('work');
  await expect(d.node('work1')).toHaveAccessibleName('work node work1, 1 warning');
  await expect(
    d.problemList.getByRole('button', {
      name: 'Warning: node "work1": never runs: nothing leads here',
    }),
  ).toBeVisible();
  await expect(d.problems.getByRole('heading')).toHaveText('Problems 0 · Warnings 1');
  await expect(
    d.problems.getByText('No problems: this flow can run, with warnings.'),
  ).toBeVisible();
  // It can still run: a process of it starts.
  await new InspectorPage(page).start('New flow');
  await expect(page.getByRole('alert')).toHaveCount(0);

  // A join: the edges drawn into it fill what it waits for, and removing one takes it out.
  await d.connect('start', 'work1');
  await expect(d.node('work1')).toHaveAccessibleName('work node work1');
  await d.addNode('join');
  await d.moveNode('join1', { x: 500, y: 300 });
  await expect(d.node('join1')).toHaveAccessibleName(/join node join1, 1 problem, 1 warning/);
  await d.connect('work1', 'join1');
  await d.connect('start', 'join1');
  await d.selectNode('join1');
  const waitsFor = d.group('Waits for (depends)');
  await expect(waitsFor.getByRole('checkbox', { name: 'work1' })).toBeChecked();
  await expect(waitsFor.getByRole('checkbox', { name: 'start' })).toBeChecked();
  await expect(d.node('join1')).toHaveAccessibleName('join node join1');
  await d.selectEdge('start', 'join1');
  await page.keyboard.press('Delete');
  await expect(d.edge('start', 'join1')).toHaveCount(0);
  await d.selectNode('join1');
  await expect(waitsFor.getByRole('checkbox', { name: 'start' })).not.toBeChecked();
  await expect(waitsFor.getByRole('checkbox', { name: 'work1' })).toBeChecked();
  // Still the designer's to change: untick what an edge put there.
  await d.check('work1', false, 'Waits for (depends)');
  await expect(d.node('join1')).toHaveAccessibleName(/join node join1, 1 problem/);

  // A problem on an edge names it by its ends.
  await d.selectEdge('work1', 'join1');
  await d.field('Condition (when, JSONata)').fill('count +');
  await expect(
    d.problemList.getByRole('button', { name: /^edge work1 → join1: condition / }),
  ).toBeVisible();
});

import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';

const pizza = fileURLToPath(
  new URL('../shared/bpmn/fixtures/pizza-collaboration.bpmn', import.meta.url),
);

test('Export BPMN writes the flow as BPMN 2.0 with its diagram, and Import takes it back as the same flow', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.openFlow('Order with approval and a timeout');
  const original = await d.exportFlow();

  const bpmn = await d.download('Export BPMN');
  expect(bpmn.name).toBe('order-approval.bpmn');
  expect(bpmn.text).toMatch(/^<\?xml[\s\S]*<bpmn:process id="order-approval"/);
  expect(bpmn.text).toContain('<bpmndi:BPMNShape id="place_di" bpmnElement="place">');

  await d.importFile(bpmn.name, bpmn.text);
  await expect(d.importNotice()).toContainText(
    '"order-approval" came in as "order-approval-2" (that id was taken)',
  );
  await expect(d.flowId).toHaveText('id: order-approval-2');
  await expect(d.noProblems).toBeVisible();
  const again = await d.exportFlow();
  expect(again.flow.nodes.map((n) => [n.id, n.kind])).toEqual(
    original.flow.nodes.map((n) => [n.id, n.kind]),
  );
});

test('a .bpmn file of another modeller imports off the page, each element it cannot map a problem on its node', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.importPath(pizza);
  await expect(d.importNotice()).toContainText('Imported Pizza Customer, Pizza vendor.');
  await expect(d.importNotice()).toContainText('message flow(s) between pools not kept');
  await expect(d.flowName).toHaveValue('Pizza Customer');
  await expect(d.problemList).toContainText('timer has no duration');
  await d.openFlow('Pizza vendor');
  await expect(d.noProblems).toBeVisible();
});

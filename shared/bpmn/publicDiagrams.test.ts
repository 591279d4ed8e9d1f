import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkWithSchema } from '../fixtures/schemaValidator.ts';
import type { Flow } from '../schema.ts';
import { validateFlow } from '../validateFlow.ts';
import { importBpmn } from './importBpmn.ts';
import { createModdle, many, type El } from './moddle.ts';

// Diagrams published by bpmn.io, made with Camunda Modeler and Signavio (fixtures/README.md).
const FIXTURES = [
  'pizza-collaboration.bpmn',
  'kitchen-sink.bpmn',
  'nested-subprocesses.bpmn',
  'transaction-boundaries.bpmn',
];
const read = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8');

async function imported(name: string) {
  const result = await importBpmn(read(name));
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result;
}

/** Every flow node of the file (tasks, events, gateways), at any depth of sub-processes. */
async function flowNodesOf(xml: string): Promise<El[]> {
  const { rootElement } = await createModdle().fromXML(xml, 'bpmn:Definitions');
  const out: El[] = [];
  const visit = (container: El) => {
    for (const el of many(container, 'flowElements')) {
      if (el.$type === 'bpmn:SequenceFlow' || el.$type.startsWith('bpmn:Data')) continue;
      out.push(el);
      // An event sub-process is reported as a whole, on its node: its elements are not imported.
      if (el.triggeredByEvent !== true) visit(el);
    }
  };
  for (const root of many(rootElement, 'rootElements')) visit(root);
  return out;
}

/** Where an element went: a node of that id, or a trigger of that id on a continue-after. */
function placeOf(flows: readonly Flow[], id: string): string | undefined {
  for (const flow of flows) {
    for (const n of flow.nodes) {
      if (n.id === id) return `node of ${flow.id}`;
      if (n.kind === 'continue-after' && n.on.some((t) => t.id === id)) return `trigger of ${n.id}`;
    }
  }
  return undefined;
}

describe('public BPMN diagrams of the common modellers', () => {
  it.each(FIXTURES)('%s imports as flows/1 that the published schema accepts', async (name) => {
    const { file } = await imported(name);
    expect(file.flows.length).toBeGreaterThan(0);
    expect(checkWithSchema(JSON.parse(JSON.stringify(file)))).toEqual({
      ok: true,
      errors: 'No errors',
    });
  });

  it.each(FIXTURES)(
    '%s: every task, event and gateway is a node or a trigger, none dropped',
    async (name) => {
      const { file } = await imported(name);
      const missing = (await flowNodesOf(read(name)))
        .filter((el) => placeOf(file.flows, el.id!) === undefined)
        // An exclusive gateway where an event-based gateway's events meet becomes its edges.
        .filter((el) => el.$type !== 'bpmn:ExclusiveGateway');
      expect(missing.map((el) => `${el.$type} ${el.id}`)).toEqual([]);
    },
  );

  it('the pizza collaboration: a flow per pool, the deferred choice one continue-after, its empty timer reported there', async () => {
    const { file, warnings } = await imported('pizza-collaboration.bpmn');
    expect(file.flows.map((f) => f.name)).toEqual(['Pizza Customer', 'Pizza vendor']);
    const customer = file.flows[0]!;
    const choice = customer.nodes.find((n) => n.id === '_6-180')!;
    expect(choice).toMatchObject({
      kind: 'continue-after',
      on: [
        { id: '_6-202', event: 'pizza received' },
        { id: '_6-219', timer: '' },
      ],
    });
    const problems = validateFlow(customer).filter((p) => p.nodeId === '_6-180');
    expect(problems.map((p) => p.message)).toContainEqual(
      expect.stringContaining('"60 minutes" (_6-219): timer has no duration'),
    );
    // The loop: ask for the pizza, then wait again at the same choice.
    expect(customer.edges).toContainEqual(
      expect.objectContaining({ from: '_6-236', to: '_6-180' }),
    );
    const vendor = file.flows[1]!;
    expect(vendor.nodes.find((n) => n.id === '_6-616')).toMatchObject({
      kind: 'end',
      terminate: true,
    });
    expect(vendor.nodes.find((n) => n.id === '_6-674')).toMatchObject({
      kind: 'continue-after',
      on: [{ event: '„where is my pizza?“' }],
    });
    expect(warnings).toContainEqual(expect.stringContaining('6 message flow(s) between pools'));
    // The vendor's flow is one a process can run.
    expect(validateFlow(vendor)).toEqual([]);
  });

  it('the kitchen sink: every element with no meaning in flow/1 is a problem on its own node', async () => {
    const { file } = await imported('kitchen-sink.bpmn');
    const problems = file.flows.flatMap((f) =>
      validateFlow(f).filter((p) => p.rule === 'unmapped'),
    );
    const on = new Set(problems.map((p) => p.nodeId));
    const elements = await flowNodesOf(read('kitchen-sink.bpmn'));
    const meaningless = elements.filter((el) => {
      const defs = many(el, 'eventDefinitions').map((d) => d.$type);
      const host = el.attachedToRef as El | undefined;
      // A timer or message on a person's task is one more trigger of that task's wait.
      const trigger =
        /UserTask|ReceiveTask/.test(host?.$type ?? '') && /Timer|Message/.test(defs.join());
      return (
        (el.$type === 'bpmn:BoundaryEvent' && !trigger) ||
        el.$type === 'bpmn:ComplexGateway' ||
        defs.some((d) => /Signal|Escalation|Compensate|Conditional|Link|Error|Cancel/.test(d))
      );
    });
    expect(meaningless.length).toBeGreaterThan(5);
    for (const el of meaningless) expect(on.has(el.id), `${el.$type} ${el.id}`).toBe(true);
  });

  it('nested sub-processes (Signavio): a flow for each, called by its sub-flow node', async () => {
    const { file } = await imported('nested-subprocesses.bpmn');
    const ids = new Set(file.flows.map((f) => f.id));
    const calls = file.flows.flatMap((f) => f.nodes.filter((n) => n.kind === 'subflow'));
    expect(calls.length).toBeGreaterThanOrEqual(5);
    for (const call of calls) expect(ids.has(call.kind === 'subflow' ? call.flow : '')).toBe(true);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFlowFile } from '../parseFlowFile.ts';
import type { Flow } from '../schema.ts';
import { signature } from '../signature.ts';
import { validateFlow } from '../validateFlow.ts';
import { exportBpmn } from './exportBpmn.ts';
import { importBpmn } from './importBpmn.ts';
import { createModdle, many, type El } from './moddle.ts';

const examples = new URL('../../examples/', import.meta.url);
const exampleFlows = readdirSync(examples)
  .filter((f) => f.endsWith('.json'))
  .map((name) => {
    const parsed = parseFlowFile(readFileSync(new URL(name, examples), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    return [name, parsed.flows] as const;
  });

async function roundTrip(flows: readonly Flow[]) {
  const xml = await exportBpmn(flows);
  const back = await importBpmn(xml);
  if (!back.ok) throw new Error(back.errors.join('\n'));
  return { xml, back };
}

describe('BPMN export', () => {
  it.each(exampleFlows)(
    '%s: export then import gives every flow back with the same signature',
    async (_, flows) => {
      const { back } = await roundTrip(flows);
      expect(back.warnings).toEqual([]);
      expect(back.file.flows.map((f) => [f.id, signature(f)])).toEqual(
        flows.map((f) => [f.id, signature(f)]),
      );
      for (const flow of back.file.flows) expect(validateFlow(flow)).toEqual([]);
    },
  );

  it.each(exampleFlows)(
    '%s: keeps labels, names and (to the pixel) positions',
    async (_, flows) => {
      const { back } = await roundTrip(flows);
      for (const [i, flow] of flows.entries()) {
        const again = back.file.flows[i]!;
        expect(again.name).toBe(flow.name);
        for (const n of flow.nodes) {
          const m = again.nodes.find((x) => x.id === n.id)!;
          expect(m.label).toBe(n.label);
          if (flows.length === 1 && n.position) {
            // Several flows are stacked in pools, which moves them down; one keeps its place.
            expect(Math.abs(m.position!.x - n.position.x)).toBeLessThanOrEqual(1);
            expect(Math.abs(m.position!.y - n.position.y)).toBeLessThanOrEqual(1);
          }
        }
      }
    },
  );

  it.each(exampleFlows)(
    '%s: is BPMN that bpmn-moddle reads without a warning, with a shape or edge for every element',
    async (_, flows) => {
      const xml = await exportBpmn(flows);
      const { rootElement, warnings } = await createModdle().fromXML(xml, 'bpmn:Definitions');
      expect(warnings).toEqual([]);
      const drawn = new Set(
        many(rootElement, 'diagrams')
          .flatMap((d) => many(d.plane as El, 'planeElement'))
          .map((s) => s.bpmnElement as El),
      );
      const processes = many(rootElement, 'rootElements').filter((r) => r.$type === 'bpmn:Process');
      expect(processes).toHaveLength(flows.length);
      for (const p of processes)
        for (const el of many(p, 'flowElements')) expect(drawn.has(el), el.id).toBe(true);
    },
  );

  it('keeps set, triggers (ids, into, form fields) and unknown fields in wakeflow: extension elements', async () => {
    const flow: Flow = {
      format: 'flow/1',
      id: 'f',
      owner: 'ops',
      nodes: [
        { id: 'start', kind: 'start', colour: 'red' },
        { id: 'w', kind: 'work', set: { 'a.b': '1 + 1', c: '"x"' } },
        {
          id: 'ask',
          kind: 'continue-after',
          on: [
            {
              id: 'person',
              human: { prompt: 'OK?', fields: [{ name: 'ok', type: 'boolean', label: 'Fine' }] },
              into: 'answer',
            },
          ],
        },
      ],
      edges: [
        { id: 'e1', from: 'start', to: 'w', note: 'first' },
        { id: 'e2', from: 'w', to: 'ask', when: 'a.b > 1' },
      ],
    } as Flow;
    const { xml, back } = await roundTrip([flow]);
    expect(xml).toContain('<wakeflow:set path="a.b">1 + 1</wakeflow:set>');
    expect(xml).toContain('language="https://jsonata.org/">a.b &gt; 1</bpmn:conditionExpression>');
    const again = back.file.flows[0]!;
    expect(again).toMatchObject({ owner: 'ops' });
    expect(again.nodes[0]).toMatchObject({ colour: 'red' });
    expect(again.edges[0]).toMatchObject({ note: 'first' });
    expect(again.nodes[2]).toMatchObject({
      on: [
        {
          id: 'person',
          into: 'answer',
          human: { prompt: 'OK?', fields: [{ name: 'ok', type: 'boolean', label: 'Fine' }] },
        },
      ],
    });
  });

  it('gives node ids that repeat across flows their own BPMN ids, and reads the flow/1 ids back', async () => {
    const a: Flow = {
      format: 'flow/1',
      id: 'a',
      nodes: [
        { id: 'start', kind: 'start' },
        { id: 'call', kind: 'subflow', flow: 'b' },
      ],
      edges: [{ id: 'e1', from: 'start', to: 'call' }],
    };
    const b: Flow = {
      format: 'flow/1',
      id: 'b',
      nodes: [{ id: 'start', kind: 'start' }],
      edges: [],
    };
    const { xml, back } = await roundTrip([a, b]);
    expect(xml).toContain('<bpmn:collaboration');
    expect(xml).toContain('wakeflow:localId="start"');
    expect(back.file.flows.map(signature)).toEqual([a, b].map(signature));
  });

  it('a BPMN file imported, with its problems noted, exports and imports back the same, problems and all', async () => {
    const xml = readFileSync(new URL('fixtures/pizza-collaboration.bpmn', import.meta.url), 'utf8');
    const first = await importBpmn(xml);
    if (!first.ok) throw new Error(first.errors.join('\n'));
    const { back } = await roundTrip(first.file.flows);
    expect(back.file.flows.map(signature)).toEqual(first.file.flows.map(signature));
    const problems = (flows: readonly Flow[]) =>
      flows.flatMap((f) => validateFlow(f).map((p) => p.message));
    expect(problems(back.file.flows)).toEqual(problems(first.file.flows));
  });
});

describe('BPMN: a call (docs/bpmn.md)', () => {
  const callFlow: Flow = {
    format: 'flow/1',
    id: 'pay',
    nodes: [
      { id: 'start', kind: 'start' },
      {
        id: 'charge',
        kind: 'continue-after',
        label: 'Charge',
        on: [
          {
            id: 'charged',
            into: 'payment',
            call: {
              method: 'POST',
              url: "'https://shop.example/charge'",
              headers: { Authorization: "'Bearer ' & $secret('shop')" },
              body: '{ "amount": total }',
              retry: { max: 2 },
            },
          },
        ],
      },
      { id: 'end', kind: 'end' },
    ],
    edges: [
      { id: 'e1', from: 'start', to: 'charge' },
      { id: 'e2', from: 'charge', to: 'end', when: 'payment.ok' },
    ],
  };

  it('a continue-after with one call is a serviceTask with a wakeflow:Call, and comes back with the same signature', async () => {
    const { xml, back } = await roundTrip([callFlow]);
    expect(xml).toMatch(/<bpmn:serviceTask id="charge" name="Charge">/);
    expect(xml).toContain('<wakeflow:call>');
    expect(back.warnings).toEqual([]);
    expect(back.file.flows.map(signature)).toEqual([signature(callFlow)]);
  });

  it('a wakeflow:Call that is not JSON is a problem noted on its node, not a crash', async () => {
    const { xml } = await roundTrip([callFlow]);
    const broken = xml.replace(
      /<wakeflow:call>[^<]*<\/wakeflow:call>/,
      '<wakeflow:call>{ nope</wakeflow:call>',
    );
    const back = await importBpmn(broken);
    if (!back.ok) throw new Error(back.errors.join('\n'));
    const problems = validateFlow(back.file.flows[0]!).map((p) => p.message);
    expect(
      problems.some((m) => m.includes('its wakeflow:Call is not a call written as a JSON object')),
    ).toBe(true);
  });
});

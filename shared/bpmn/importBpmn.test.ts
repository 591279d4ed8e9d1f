import { describe, expect, it } from 'vitest';
import type { Flow, FlowEdge, FlowNode } from '../schema.ts';
import { validateFlow } from '../validateFlow.ts';
import { definitions, processOf, seq } from './fixtures/bpmnText.ts';
import { importBpmn } from './importBpmn.ts';
import { SPREAD } from './layout.ts';

async function imported(xml: string) {
  const result = await importBpmn(xml);
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result;
}
const only = async (xml: string) => (await imported(xml)).file.flows[0]!;
const node = (flow: Flow, id: string) => flow.nodes.find((n) => n.id === id)!;
const edge = (flow: Flow, id: string) => flow.edges.find((e) => e.id === id)!;
const problemsOn = (flow: Flow, where: { nodeId?: string; edgeId?: string }) =>
  validateFlow(flow)
    .filter((p) => p.rule === 'unmapped')
    .filter((p) => p.nodeId === where.nodeId && p.edgeId === where.edgeId)
    .map((p) => p.message);

describe('BPMN import: events, tasks and the flows between them', () => {
  it('maps start, tasks (work), a none end and a terminate end, with names as labels', async () => {
    const flow = await only(
      processOf(`
        <bpmn:startEvent id="s" name="Begin" />
        <bpmn:serviceTask id="t" name="Charge" />
        <bpmn:parallelGateway id="g" />
        <bpmn:endEvent id="e1" />
        <bpmn:endEvent id="e2"><bpmn:terminateEventDefinition /></bpmn:endEvent>
        ${seq('f1', 's', 't')}${seq('f2', 't', 'g')}${seq('f3', 'g', 'e1')}${seq('f4', 'g', 'e2')}`),
    );
    expect(flow.id).toBe('Process_1');
    expect(flow.nodes.map((n) => [n.id, n.kind, n.label])).toEqual([
      ['s', 'start', 'Begin'],
      ['t', 'work', 'Charge'],
      ['g', 'fanout', undefined],
      ['e1', 'end', undefined],
      ['e2', 'end', undefined],
    ]);
    expect(node(flow, 'e2')).toMatchObject({ terminate: true });
    expect(node(flow, 'e1')).not.toHaveProperty('terminate');
    expect(flow.edges.map((e) => [e.id, e.from, e.to])).toEqual([
      ['f1', 's', 't'],
      ['f2', 't', 'g'],
      ['f3', 'g', 'e1'],
      ['f4', 'g', 'e2'],
    ]);
    expect(validateFlow(flow)).toEqual([]);
  });

  it('maps a user task to a continue-after with a human trigger, its form fields from Camunda', async () => {
    const flow = await only(
      processOf(`
        <bpmn:startEvent id="s" />
        <bpmn:userTask id="approve" name="Approve the order">
          <bpmn:extensionElements>
            <camunda:formData>
              <camunda:formField id="approved" label="Approved?" type="boolean" />
              <camunda:formField id="amount" type="long" />
              <camunda:formField id="note" type="string" />
            </camunda:formData>
          </bpmn:extensionElements>
        </bpmn:userTask>
        ${seq('f1', 's', 'approve')}`),
    );
    expect(node(flow, 'approve')).toMatchObject({
      kind: 'continue-after',
      on: [
        {
          id: 'approve',
          human: {
            prompt: 'Approve the order',
            fields: [
              { name: 'approved', type: 'boolean', label: 'Approved?' },
              { name: 'amount', type: 'number' },
              { name: 'note', type: 'string' },
            ],
          },
        },
      ],
    });
  });

  it('maps intermediate timer and message catch events to continue-afters', async () => {
    const flow = await only(
      definitions(`
        <bpmn:message id="m1" name="payment.received" />
        <bpmn:process id="p">
          <bpmn:startEvent id="s" />
          <bpmn:intermediateCatchEvent id="wait">
            <bpmn:timerEventDefinition><bpmn:timeDuration>PT2H</bpmn:timeDuration></bpmn:timerEventDefinition>
          </bpmn:intermediateCatchEvent>
          <bpmn:intermediateCatchEvent id="paid">
            <bpmn:messageEventDefinition messageRef="m1" />
          </bpmn:intermediateCatchEvent>
          <bpmn:receiveTask id="receipt" messageRef="m1" />
          ${seq('f1', 's', 'wait')}${seq('f2', 'wait', 'paid')}${seq('f3', 'paid', 'receipt')}
        </bpmn:process>`),
    );
    expect(node(flow, 'wait')).toMatchObject({
      kind: 'continue-after',
      on: [{ id: 'wait', timer: 'PT2H' }],
    });
    expect(node(flow, 'paid')).toMatchObject({ on: [{ id: 'paid', event: 'payment.received' }] });
    expect(node(flow, 'receipt')).toMatchObject({ on: [{ event: 'payment.received' }] });
    expect(validateFlow(flow)).toEqual([]);
  });
});

describe('BPMN import: gateways', () => {
  it('an exclusive gateway: each condition also says the earlier ones were false; the default, that none held', async () => {
    const flow = await only(
      processOf(`
        <bpmn:startEvent id="s" />
        <bpmn:exclusiveGateway id="x" default="fd" />
        <bpmn:task id="big" /><bpmn:task id="mid" /><bpmn:task id="small" />
        ${seq('f0', 's', 'x')}
        ${seq('fa', 'x', 'big', 'amount &gt; 100')}
        ${seq('fb', 'x', 'mid', 'amount &gt; 10')}
        ${seq('fd', 'x', 'small')}`),
    );
    expect(node(flow, 'x').kind).toBe('fanout');
    expect(edge(flow, 'fa').when).toBe('amount > 100');
    expect(edge(flow, 'fb').when).toBe('$not(amount > 100) and (amount > 10)');
    expect(edge(flow, 'fd').when).toBe('$not(amount > 100) and $not(amount > 10)');
    expect(validateFlow(flow)).toEqual([]);
  });

  it('keeps a condition named as JSONata, and reports one in another language on its edge until it is rewritten', async () => {
    const flow = await only(
      processOf(`
        <bpmn:startEvent id="s" />
        <bpmn:inclusiveGateway id="x" />
        <bpmn:task id="a" /><bpmn:task id="b" /><bpmn:task id="c" />
        ${seq('f0', 's', 'x')}
        ${seq('fa', 'x', 'a', '${amount > 100}')}
        ${seq('fb', 'x', 'b', 'amount &gt; 5', 'https://jsonata.org/')}
        ${seq('fc', 'x', 'c', 'return amount > 1', 'javascript')}`),
    );
    expect(edge(flow, 'fb').when).toBe('amount > 5');
    expect(edge(flow, 'fa')).not.toHaveProperty('when');
    expect(problemsOn(flow, { edgeId: 'fa' })).toEqual([
      expect.stringMatching(
        /^the condition "\$\{amount > 100\}" is in another expression language \(JUEL\)/,
      ),
    ]);
    expect(problemsOn(flow, { edgeId: 'fc' })).toEqual([expect.stringContaining('(javascript)')]);
    // Once the designer writes the condition, the edge is no longer as imported: dealt with.
    const fixed: Flow = {
      ...flow,
      edges: flow.edges.map((e): FlowEdge => (e.id === 'fa' ? { ...e, when: 'amount > 100' } : e)),
    };
    expect(problemsOn(fixed, { edgeId: 'fa' })).toEqual([]);
    expect(problemsOn(fixed, { edgeId: 'fc' })).toHaveLength(1);
  });

  it('a parallel split and join: a fan-out, and a join that depends on the branches that meet there', async () => {
    const flow = await only(
      processOf(`
        <bpmn:startEvent id="s" />
        <bpmn:parallelGateway id="split" />
        <bpmn:task id="a" /><bpmn:task id="b" />
        <bpmn:parallelGateway id="both" />
        <bpmn:endEvent id="e" />
        ${seq('f0', 's', 'split')}${seq('f1', 'split', 'a')}${seq('f2', 'split', 'b')}
        ${seq('f3', 'a', 'both')}${seq('f4', 'b', 'both')}${seq('f5', 'both', 'e')}`),
    );
    expect(node(flow, 'split').kind).toBe('fanout');
    expect(node(flow, 'both')).toMatchObject({ kind: 'join', depends: ['a', 'b'] });
    expect(validateFlow(flow)).toEqual([]);
  });

  it('an inclusive gateway: conditional fan-out and a join', async () => {
    const flow = await only(
      processOf(`
        <bpmn:startEvent id="s" />
        <bpmn:inclusiveGateway id="or" />
        <bpmn:task id="a" /><bpmn:task id="b" />
        <bpmn:inclusiveGateway id="meet" />
        ${seq('f0', 's', 'or')}${seq('f1', 'or', 'a', 'wantA')}${seq('f2', 'or', 'b', 'wantB')}
        ${seq('f3', 'a', 'meet')}${seq('f4', 'b', 'meet')}`),
    );
    // Every condition that holds is taken, as in flow/1: no exclusivity added.
    expect([edge(flow, 'f1').when, edge(flow, 'f2').when]).toEqual(['wantA', 'wantB']);
    expect(node(flow, 'meet')).toMatchObject({ kind: 'join', depends: ['a', 'b'] });
  });

  it('an event-based gateway and its catch events: one continue-after, first trigger wins', async () => {
    const flow = await only(
      definitions(`
        <bpmn:message id="m" name="pizza.delivered" />
        <bpmn:process id="p">
          <bpmn:startEvent id="s" />
          <bpmn:eventBasedGateway id="await" name="Wait for the pizza" />
          <bpmn:intermediateCatchEvent id="got"><bpmn:messageEventDefinition messageRef="m" /></bpmn:intermediateCatchEvent>
          <bpmn:intermediateCatchEvent id="late">
            <bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition>
          </bpmn:intermediateCatchEvent>
          <bpmn:exclusiveGateway id="either" />
          <bpmn:task id="eat" /><bpmn:task id="call" /><bpmn:endEvent id="e" />
          ${seq('f0', 's', 'await')}${seq('g1', 'await', 'got')}${seq('g2', 'await', 'late')}
          ${seq('f1', 'got', 'eat')}${seq('f2', 'late', 'call')}${seq('f3', 'call', 'await')}
          ${seq('m1', 'got', 'either')}${seq('m2', 'late', 'either')}${seq('f4', 'either', 'e')}
        </bpmn:process>`),
    );
    expect(node(flow, 'await')).toMatchObject({
      kind: 'continue-after',
      label: 'Wait for the pizza',
      on: [
        { id: 'got', event: 'pizza.delivered' },
        { id: 'late', timer: 'PT1H' },
      ],
    });
    const ids = flow.nodes.map((n) => n.id);
    expect(ids).not.toContain('got');
    expect(ids).not.toContain('either');
    expect(flow.edges.map((e) => [e.id, e.from, e.to, e.trigger])).toEqual([
      ['f0', 's', 'await', undefined],
      ['f1', 'await', 'eat', 'got'],
      ['f2', 'await', 'call', 'late'],
      ['f3', 'call', 'await', undefined],
      // The exclusive gateway where the catch events met: taken whichever fired.
      ['f4', 'await', 'e', undefined],
    ]);
    expect(validateFlow(flow)).toEqual([]);
  });
});

describe('BPMN import: timers', () => {
  const timer = async (definition: string) =>
    only(
      processOf(`<bpmn:startEvent id="s" />
        <bpmn:intermediateCatchEvent id="t"><bpmn:timerEventDefinition>${definition}</bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
        ${seq('f', 's', 't')}`),
    );

  it('an empty timeDate comes in as a timer with no duration, reported on its node', async () => {
    const flow = await timer('<bpmn:timeDate />');
    expect(node(flow, 't')).toMatchObject({ on: [{ id: 't', timer: '' }] });
    expect(problemsOn(flow, { nodeId: 't' })).toEqual([
      expect.stringContaining('timer has no duration'),
    ]);
    // Giving the timer a duration deals with it: the node is no longer as imported.
    const fixed = {
      ...flow,
      nodes: flow.nodes.map((n) =>
        n.id === 't' ? ({ ...n, on: [{ id: 't', timer: 'PT5M' }] } as FlowNode) : n,
      ),
    };
    expect(validateFlow(fixed)).toEqual([]);
  });

  it('a date or a repeating cycle has no meaning for a flow/1 timer: reported, quoting it', async () => {
    const date = await timer('<bpmn:timeDate>2026-03-01T09:00:00Z</bpmn:timeDate>');
    expect(problemsOn(date, { nodeId: 't' })).toEqual([
      expect.stringContaining('timeDate "2026-03-01T09:00:00Z"'),
    ]);
    const cycle = await timer('<bpmn:timeCycle>R3/PT10M</bpmn:timeCycle>');
    expect(problemsOn(cycle, { nodeId: 't' })).toEqual([expect.stringContaining('R3/PT10M')]);
  });
});

describe('BPMN import: what has no meaning in flow/1 is reported where it was', () => {
  it('a boundary timer on a user task is one more trigger of its continue-after', async () => {
    const flow = await only(
      processOf(`
        <bpmn:startEvent id="s" />
        <bpmn:userTask id="approve" name="Approve" />
        <bpmn:boundaryEvent id="timeout" attachedToRef="approve">
          <bpmn:timerEventDefinition><bpmn:timeDuration>P2D</bpmn:timeDuration></bpmn:timerEventDefinition>
        </bpmn:boundaryEvent>
        <bpmn:task id="ship" /><bpmn:task id="expire" />
        ${seq('f0', 's', 'approve')}${seq('f1', 'approve', 'ship')}${seq('f2', 'timeout', 'expire')}`),
    );
    expect(node(flow, 'approve')).toMatchObject({
      on: [
        { id: 'approve', human: { prompt: 'Approve' } },
        { id: 'timeout', timer: 'P2D' },
      ],
    });
    expect(edge(flow, 'f2')).toMatchObject({ from: 'approve', trigger: 'timeout' });
    expect(validateFlow(flow)).toEqual([]);
  });

  it('a boundary event elsewhere, a signal, an error end, a loop marker: each a problem on its node', async () => {
    const flow = await only(
      definitions(`
        <bpmn:signal id="sig" name="alarm" />
        <bpmn:process id="p">
          <bpmn:startEvent id="s" />
          <bpmn:serviceTask id="charge"><bpmn:multiInstanceLoopCharacteristics /></bpmn:serviceTask>
          <bpmn:boundaryEvent id="failed" attachedToRef="charge"><bpmn:errorEventDefinition /></bpmn:boundaryEvent>
          <bpmn:intermediateCatchEvent id="alarm"><bpmn:signalEventDefinition signalRef="sig" /></bpmn:intermediateCatchEvent>
          <bpmn:endEvent id="oops"><bpmn:errorEventDefinition /></bpmn:endEvent>
          <bpmn:complexGateway id="cx" />
          ${seq('f0', 's', 'charge')}${seq('f1', 'charge', 'alarm')}${seq('f2', 'alarm', 'cx')}
          ${seq('f3', 'cx', 'oops')}${seq('f4', 'failed', 'oops')}
        </bpmn:process>`),
    );
    expect(problemsOn(flow, { nodeId: 'charge' })).toEqual([
      expect.stringContaining('multi-instance'),
    ]);
    expect(problemsOn(flow, { nodeId: 'failed' })).toEqual([
      expect.stringContaining('boundary event'),
    ]);
    expect(problemsOn(flow, { nodeId: 'alarm' })).toEqual([
      expect.stringContaining('signal events have no meaning'),
    ]);
    expect(problemsOn(flow, { nodeId: 'oops' })).toEqual([
      expect.stringContaining('error end events'),
    ]);
    expect(problemsOn(flow, { nodeId: 'cx' })).toEqual([expect.stringContaining('ComplexGateway')]);
    // Kept as nodes, with their edges, so that nothing of the drawing is lost.
    expect(edge(flow, 'f4')).toMatchObject({ from: 'failed', to: 'oops' });
  });
});

describe('BPMN import: processes, sub-processes and the diagram', () => {
  it('a collaboration: one flow per participant, named after its pool; message flows are a warning', async () => {
    const result = await imported(
      definitions(`
        <bpmn:collaboration id="c">
          <bpmn:participant id="pa" name="Customer" processRef="pc" />
          <bpmn:participant id="pb" name="Shop" processRef="ps" />
          <bpmn:messageFlow id="mf" sourceRef="order" targetRef="got" />
        </bpmn:collaboration>
        <bpmn:process id="ps"><bpmn:startEvent id="got" /></bpmn:process>
        <bpmn:process id="pc"><bpmn:startEvent id="s" /><bpmn:sendTask id="order" />${seq('f', 's', 'order')}</bpmn:process>`),
    );
    expect(result.file.flows.map((f) => [f.id, f.name])).toEqual([
      ['pc', 'Customer'],
      ['ps', 'Shop'],
    ]);
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining('1 message flow(s) between pools not kept'),
        expect.stringContaining('send task order sends a message'),
      ]),
    );
  });

  it('a call activity and an embedded sub-process become sub-flow nodes calling flows of the file', async () => {
    const result = await imported(
      definitions(`
        <bpmn:process id="main">
          <bpmn:startEvent id="s" />
          <bpmn:callActivity id="call" calledElement="billing" />
          <bpmn:subProcess id="inner" name="Pack">
            <bpmn:startEvent id="is" /><bpmn:task id="pack" />${seq('if', 'is', 'pack')}
          </bpmn:subProcess>
          ${seq('f1', 's', 'call')}${seq('f2', 'call', 'inner')}
        </bpmn:process>
        <bpmn:process id="billing"><bpmn:startEvent id="bs" /></bpmn:process>`),
    );
    const [main, billing, inner] = result.file.flows;
    expect(node(main!, 'call')).toMatchObject({ kind: 'subflow', flow: 'billing' });
    expect(node(main!, 'inner')).toMatchObject({ kind: 'subflow', flow: 'inner', label: 'Pack' });
    expect(billing!.id).toBe('billing');
    expect(inner).toMatchObject({ id: 'inner', name: 'Pack' });
    expect(inner!.nodes.map((n) => n.id)).toEqual(['is', 'pack']);
  });

  it("takes positions from BPMN DI, about each shape's centre, spread for the wider nodes of the canvas", async () => {
    const flow = await only(
      processOf(
        `<bpmn:startEvent id="s" /><bpmn:task id="t" />${seq('f', 's', 't')}
        </bpmn:process>
        <bpmndi:BPMNDiagram id="d"><bpmndi:BPMNPlane id="pl" bpmnElement="Process_1">
          <bpmndi:BPMNShape id="s_di" bpmnElement="s"><dc:Bounds x="100" y="200" width="36" height="36" /></bpmndi:BPMNShape>
          <bpmndi:BPMNShape id="t_di" bpmnElement="t"><dc:Bounds x="200" y="178" width="100" height="80" /></bpmndi:BPMNShape>
        </bpmndi:BPMNPlane></bpmndi:BPMNDiagram><bpmn:process id="unused">`,
      ),
    );
    const s = node(flow, 's').position!;
    const t = node(flow, 't').position!;
    // Both centres are at y = 218 in BPMN, so the nodes stand on one line.
    expect(s.y).toBe(t.y);
    // Centres 132 BPMN units apart, SPREAD times that on the canvas.
    expect(t.x - s.x).toBe(Math.round(132 * SPREAD));
  });

  it('gives ids that flow/1 refuses a safe form; what bpmn-moddle cannot read is a warning', async () => {
    const result = await imported(
      processOf(
        `<bpmn:startEvent id="s" /><bpmn:task id="a/b" /><bpmn:task id="constructor" />`,
        'prototype',
      ),
    );
    expect(result.file.flows[0]!.id).toBe('prototype_');
    expect(result.warnings).toEqual([
      expect.stringMatching(/^line \d+, column \d+: illegal ID <a\/b>/),
      expect.stringMatching(/^line \d+, column \d+: duplicate ID <constructor>/),
    ]);
  });
});

describe('BPMN import refuses what is not BPMN, saying what is wrong', () => {
  const refusal = async (xml: string) => {
    const result = await importBpmn(xml);
    if (result.ok) throw new Error('expected a refusal');
    return result.errors;
  };

  it('broken XML: where and what', async () => {
    expect(await refusal(processOf('<bpmn:task id="a">'))).toEqual([
      expect.stringMatching(/^line \d+, column \d+: closing tag mismatch/),
    ]);
  });

  it('text that is not XML, JSON, or XML that is not BPMN', async () => {
    expect(await refusal('hello')).toEqual([expect.stringContaining('not XML')]);
    expect(await refusal('{"format":"flow/1"}')).toEqual([expect.stringContaining('not XML')]);
    expect(await refusal('<svg xmlns="http://www.w3.org/2000/svg"/>')).toEqual([
      expect.stringContaining('failed to parse document as <bpmn:Definitions>'),
    ]);
    expect(await refusal(definitions(''))).toEqual(['the file holds no BPMN process']);
  });

  it('a DOCTYPE, whose entities could reach outside the file or expand without end (XXE)', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>${processOf('<bpmn:task id="t" name="&x;" />')}`;
    expect(await refusal(xxe)).toEqual([expect.stringContaining('declares a DOCTYPE')]);
    const laughs = `<!DOCTYPE d [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>${processOf('')}`;
    expect(await refusal(laughs)).toEqual([expect.stringContaining('declares a DOCTYPE')]);
  });

  it('a huge file, before it is parsed', async () => {
    const huge = processOf(`<!-- ${'x'.repeat(5 * 1024 * 1024)} -->`);
    expect(await refusal(huge)).toEqual([
      expect.stringMatching(/^the file is 5\.0 MB; a BPMN file can be at most 4 MB$/),
    ]);
  });

  it('elements nested 10,000 deep, before they are parsed', async () => {
    const deep = processOf(
      `${'<bpmn:subProcess>'.repeat(10_000)}${'</bpmn:subProcess>'.repeat(10_000)}`,
    );
    expect(await refusal(deep)).toEqual([
      expect.stringContaining('nested more than 256 levels deep'),
    ]);
  });

  it('an unterminated attribute value does not make the depth check slow to refuse', async () => {
    // A quote left open once and many tags after it: one pass, so this is refused as broken XML.
    const text = processOf(`<bpmn:task id="a name="x />${'<a>'.repeat(200_000)}`);
    expect((await importBpmn(text)).ok).toBe(false);
  });
});

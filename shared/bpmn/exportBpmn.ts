import type { Flow, FlowEdge, Trigger } from '../schema.ts';
import { boundsAt, SIZES, type Bounds } from './layout.ts';
import { createModdle, type El, type Moddle } from './moddle.ts';

/** The expression language that flow/1's conditions are written in. */
export const JSONATA = 'https://jsonata.org/';

const FLOW_FIELDS = new Set(['format', 'id', 'name', 'nodes', 'edges', '$schema']);
const NODE_FIELDS = new Set([
  'id',
  'kind',
  'label',
  'position',
  'depends',
  'set',
  'on',
  'flow',
  'terminate',
]);
const EDGE_FIELDS = new Set(['id', 'from', 'to', 'when', 'trigger']);

/**
 * Flows as one BPMN 2.0 file with its diagram (DI), so that it opens in bpmn-js or Camunda
 * Modeler with its layout: one process per flow, in a pool each when there are several. What
 * BPMN has no place for is kept in `wakeflow:` extension elements (moddle.ts), so that the file
 * imports back to the same signature. docs/bpmn.md has the mapping.
 */
export async function exportBpmn(flows: readonly Flow[]): Promise<string> {
  const moddle = createModdle();
  const ids = new Ids();
  const messages = new Map<string, El>();
  const processIds = new Map<string, string>();
  for (const flow of flows) processIds.set(flow.id, ids.take(flow.id));

  const drawn = flows.map((flow) => exportFlow(flow, { moddle, ids, messages, processIds }));
  const diagramElements: El[] = [];
  const rootElements: El[] = [...messages.values()];
  let plane: El;
  if (drawn.length === 1) {
    rootElements.push(drawn[0]!.process);
    plane = moddle.create('bpmndi:BPMNPlane', {
      id: ids.take('Plane'),
      bpmnElement: drawn[0]!.process,
    });
    diagramElements.push(...drawn[0]!.shapes);
  } else {
    // Several flows: a pool each, stacked, so that every flow shows with its own layout.
    const participants: El[] = [];
    let top = 0;
    for (const d of drawn) {
      const box = d.box;
      const dy = top - box.y + 30;
      const participant = moddle.create('bpmn:Participant', {
        id: ids.take(`Participant_${d.process.id}`),
        name: d.process.name,
        processRef: d.process,
      });
      participants.push(participant);
      rootElements.push(d.process);
      diagramElements.push(
        moddle.create('bpmndi:BPMNShape', {
          id: ids.take(`${participant.id}_di`),
          bpmnElement: participant,
          isHorizontal: true,
          bounds: moddle.create('dc:Bounds', {
            x: box.x - 60,
            y: top,
            width: box.width + 100,
            height: box.height + 60,
          }),
        }),
      );
      for (const s of d.shapes) shift(s, dy);
      diagramElements.push(...d.shapes);
      top += box.height + 90;
    }
    const collaboration = moddle.create('bpmn:Collaboration', {
      id: ids.take('Collaboration'),
      participants,
    });
    rootElements.unshift(collaboration);
    plane = moddle.create('bpmndi:BPMNPlane', {
      id: ids.take('Plane'),
      bpmnElement: collaboration,
    });
  }
  plane.planeElement = diagramElements;
  const definitions = moddle.create('bpmn:Definitions', {
    id: ids.take('Definitions'),
    targetNamespace: 'https://wakeflow.dev/bpmn',
    exporter: 'wakeflow',
    exporterVersion: '1',
    rootElements,
    diagrams: [moddle.create('bpmndi:BPMNDiagram', { id: ids.take('Diagram'), plane })],
  });
  return (await moddle.toXML(definitions, { format: true })).xml;
}

/** BPMN ids are unique in the whole file; flow/1's only in their flow. */
class Ids {
  private taken = new Set<string>();
  take(wanted: string): string {
    // An XML id starts with a letter or "_" and holds no spaces.
    let base = wanted.replace(/[^\w.-]/g, '_');
    if (!/^[A-Za-z_]/.test(base)) base = `_${base}`;
    let id = base;
    for (let n = 2; this.taken.has(id); n++) id = `${base}_${n}`;
    this.taken.add(id);
    return id;
  }
}

interface Shared {
  moddle: Moddle;
  ids: Ids;
  messages: Map<string, El>;
  processIds: Map<string, string>;
}

/** Where a node's edges leave from and arrive at in BPMN. */
interface NodeElements {
  main: El;
  /** A multi-trigger continue-after: each trigger's catch element, by trigger id. */
  catches: Map<string, El>;
  /** ... and where its edges without a trigger leave from. */
  merge?: El;
}

function exportFlow(flow: Flow, shared: Shared) {
  const { moddle, ids } = shared;
  const flowElements: El[] = [];
  const shapes: El[] = [];
  const bounds = new Map<El, Bounds>();
  const byNode = new Map<string, NodeElements>();
  const outsOf = (id: string) => flow.edges.filter((e) => e.from === id);

  const element = (
    type: string,
    wanted: string,
    props: Record<string, unknown>,
    at: { x: number; y: number },
    size: { width: number; height: number },
  ) => {
    const id = ids.take(wanted);
    const el = moddle.create(type, { id, ...props });
    if (id !== wanted) el.localId = wanted;
    flowElements.push(el);
    const b = boundsAt(at, size);
    bounds.set(el, b);
    shapes.push(
      moddle.create('bpmndi:BPMNShape', {
        id: ids.take(`${id}_di`),
        bpmnElement: el,
        bounds: moddle.create('dc:Bounds', { ...b }),
      }),
    );
    return el;
  };
  const extend = (el: El, values: El[]) => {
    if (values.length > 0)
      el.extensionElements = moddle.create('bpmn:ExtensionElements', { values });
  };
  const fieldsOf = (value: Record<string, unknown>, known: Set<string>): El[] => {
    const rest = Object.fromEntries(Object.entries(value).filter(([k]) => !known.has(k)));
    return Object.keys(rest).length > 0
      ? [moddle.create('wakeflow:Fields', { json: JSON.stringify(rest) })]
      : [];
  };
  /** The trigger's extension elements: its id and into, and a call's request. */
  const triggerExts = (t: Trigger): El[] =>
    t.call
      ? [triggerExt(t), moddle.create('wakeflow:Call', { json: JSON.stringify(t.call) })]
      : [triggerExt(t)];
  const triggerExt = (t: Trigger): El =>
    moddle.create('wakeflow:Trigger', {
      triggerId: t.id,
      ...(t.into !== undefined ? { into: t.into } : {}),
      ...(t.human
        ? {
            human: true,
            ...(t.human.prompt !== undefined ? { prompt: t.human.prompt } : {}),
            fields: t.human.fields.map((f) =>
              moddle.create('wakeflow:Field', {
                name: f.name,
                type: f.type,
                ...(f.label !== undefined ? { label: f.label } : {}),
              }),
            ),
          }
        : {}),
    });
  const eventDefinition = (t: Trigger): El[] => {
    if (t.timer !== undefined) {
      return [
        moddle.create('bpmn:TimerEventDefinition', {
          id: ids.take(`TimerEventDefinition_${t.id}`),
          timeDuration: moddle.create('bpmn:FormalExpression', { body: t.timer }),
        }),
      ];
    }
    if (t.event !== undefined) {
      let message = shared.messages.get(t.event);
      if (!message) {
        message = moddle.create('bpmn:Message', {
          id: ids.take(`Message_${t.event}`),
          name: t.event,
        });
        shared.messages.set(t.event, message);
      }
      return [
        moddle.create('bpmn:MessageEventDefinition', {
          id: ids.take(`MessageEventDefinition_${t.id}`),
          messageRef: message,
        }),
      ];
    }
    return [];
  };
  /** A catch element for one trigger: a user or receive task for a person, else an event. */
  const waitFor = (
    t: Trigger,
    wanted: string,
    name: string | undefined,
    at: { x: number; y: number },
    alone: boolean,
  ) => {
    const props = name !== undefined ? { name } : {};
    // A call is work done by a service; beside other triggers, an event-based gateway can lead
    // only to catch events and receive tasks, so there it is a receive task.
    if (t.call)
      return element(
        alone ? 'bpmn:ServiceTask' : 'bpmn:ReceiveTask',
        wanted,
        props,
        at,
        SIZES.task,
      );
    if (t.human)
      return element(alone ? 'bpmn:UserTask' : 'bpmn:ReceiveTask', wanted, props, at, SIZES.task);
    return element(
      'bpmn:IntermediateCatchEvent',
      wanted,
      { ...props, eventDefinitions: eventDefinition(t) },
      at,
      SIZES.event,
    );
  };

  flow.nodes.forEach((n, index) => {
    const at = n.position ?? { x: index * 180, y: 0 };
    const name = n.label !== undefined ? { name: n.label } : {};
    const ext: El[] = [
      ...(n.depends ?? []).map((d) => moddle.create('wakeflow:Depends', { node: d })),
      ...fieldsOf(n as Record<string, unknown>, NODE_FIELDS),
    ];
    const entry: NodeElements = { main: undefined as unknown as El, catches: new Map() };
    switch (n.kind) {
      case 'start':
        entry.main = element('bpmn:StartEvent', n.id, name, at, SIZES.event);
        break;
      case 'end':
        entry.main = element(
          'bpmn:EndEvent',
          n.id,
          {
            ...name,
            eventDefinitions: n.terminate
              ? [
                  moddle.create('bpmn:TerminateEventDefinition', {
                    id: ids.take(`TerminateEventDefinition_${n.id}`),
                  }),
                ]
              : [],
          },
          at,
          SIZES.event,
        );
        break;
      case 'work':
        entry.main = element('bpmn:Task', n.id, name, at, SIZES.task);
        ext.unshift(
          ...Object.entries(n.set ?? {}).map(([path, expression]) =>
            moddle.create('wakeflow:Set', { path, expression }),
          ),
        );
        break;
      case 'subflow':
        entry.main = element(
          'bpmn:CallActivity',
          n.id,
          { ...name, calledElement: shared.processIds.get(n.flow) ?? n.flow },
          at,
          SIZES.task,
        );
        break;
      case 'fanout':
      case 'join': {
        const outs = outsOf(n.id);
        // A join's is an inclusive gateway (flow/1's join is OR-join-like); a fan-out's says
        // which edges it takes: all of them (parallel) or those whose condition holds (inclusive).
        const type =
          n.kind === 'join'
            ? 'bpmn:InclusiveGateway'
            : outs.length <= 1
              ? 'bpmn:ExclusiveGateway'
              : outs.every((e) => e.when === undefined)
                ? 'bpmn:ParallelGateway'
                : 'bpmn:InclusiveGateway';
        entry.main = element(type, n.id, { ...name, kind: n.kind }, at, SIZES.gateway);
        break;
      }
      case 'continue-after': {
        if (n.on.length <= 1) {
          const t = n.on[0];
          entry.main = t
            ? waitFor(t, n.id, n.label, at, true)
            : element('bpmn:IntermediateCatchEvent', n.id, name, at, SIZES.event);
          if (t) ext.unshift(...triggerExts(t));
          break;
        }
        entry.main = element('bpmn:EventBasedGateway', n.id, name, at, SIZES.gateway);
        const rows = n.on.length;
        n.on.forEach((t, i) => {
          const catchAt = { x: at.x + 150, y: at.y + (i - (rows - 1) / 2) * 120 };
          const c = waitFor(t, `${n.id}_${t.id}`, t.id, catchAt, false);
          extend(c, triggerExts(t));
          entry.catches.set(t.id, c);
          sequence(ids.take(`${n.id}_to_${t.id}`), entry.main, c);
        });
        if (outsOf(n.id).some((e) => e.trigger === undefined)) {
          const untriggered = outsOf(n.id).filter((e) => e.trigger === undefined);
          const type = untriggered.length > 1 ? 'bpmn:InclusiveGateway' : 'bpmn:ExclusiveGateway';
          entry.merge = element(
            type,
            `${n.id}_merge`,
            { kind: 'merge' },
            { x: at.x + 300, y: at.y },
            SIZES.gateway,
          );
          for (const [tid, c] of entry.catches)
            sequence(ids.take(`${n.id}_${tid}_merge`), c, entry.merge);
        }
        break;
      }
    }
    extend(entry.main, ext);
    byNode.set(n.id, entry);
  });

  function sequence(id: string, from: El, to: El, edge?: FlowEdge): El {
    const f = moddle.create('bpmn:SequenceFlow', { id, sourceRef: from, targetRef: to });
    if (edge) {
      if (id !== edge.id) f.localId = edge.id;
      if (edge.when !== undefined)
        f.conditionExpression = moddle.create('bpmn:FormalExpression', {
          body: edge.when,
          language: JSONATA,
        });
      if (edge.trigger !== undefined) f.trigger = edge.trigger;
      extend(f, fieldsOf(edge as Record<string, unknown>, EDGE_FIELDS));
    }
    from.outgoing = [...((from.outgoing as El[] | undefined) ?? []), f];
    to.incoming = [...((to.incoming as El[] | undefined) ?? []), f];
    flowElements.push(f);
    const a = bounds.get(from)!;
    const b = bounds.get(to)!;
    shapes.push(
      moddle.create('bpmndi:BPMNEdge', {
        id: ids.take(`${id}_di`),
        bpmnElement: f,
        waypoint: [
          moddle.create('dc:Point', { x: a.x + a.width, y: a.y + a.height / 2 }),
          moddle.create('dc:Point', { x: b.x, y: b.y + b.height / 2 }),
        ],
      }),
    );
    return f;
  }

  for (const e of flow.edges) {
    const from = byNode.get(e.from);
    const to = byNode.get(e.to);
    // An edge to or from a node that is not there (a flow that cannot run) has no place in BPMN.
    if (!from || !to) continue;
    const source =
      (e.trigger !== undefined ? from.catches.get(e.trigger) : from.merge) ?? from.main;
    sequence(ids.take(e.id), source, to.main, e);
  }

  const process = moddle.create('bpmn:Process', {
    id: shared.processIds.get(flow.id)!,
    isExecutable: true,
    flowElements,
    ...(flow.name !== undefined ? { name: flow.name } : {}),
  });
  if (process.id !== flow.id) process.localId = flow.id;
  extend(process, fieldsOf(flow as Record<string, unknown>, FLOW_FIELDS));
  return { process, shapes, box: box([...bounds.values()]) };
}

function box(all: Bounds[]): Bounds {
  if (all.length === 0) return { x: 0, y: 0, width: 200, height: 100 };
  const x = Math.min(...all.map((b) => b.x));
  const y = Math.min(...all.map((b) => b.y));
  const right = Math.max(...all.map((b) => b.x + b.width));
  const bottom = Math.max(...all.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}

function shift(shape: El, dy: number): void {
  const b = shape.bounds as { y: number } | undefined;
  if (b) b.y += dy;
  for (const p of (shape.waypoint as { y: number }[] | undefined) ?? []) p.y += dy;
}

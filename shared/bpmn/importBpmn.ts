import { schemaUrl } from '../schemaUrl.ts';
import { quote } from '../quote.ts';
import {
  RESERVED_KEYS,
  flowsSchema,
  type Flow,
  type FlowEdge,
  type FlowNode,
  type FlowsFile,
} from '../schema.ts';
import { noteOnEdge, noteOnNode, UNMAPPED_FIELD } from '../unmapped.ts';
import { positionOf, type Bounds } from './layout.ts';
import { extensions, localName, many, one, text, type El } from './moddle.ts';
import { readBpmn } from './readBpmn.ts';
import { conditionOf, defaultFlows, exclusiveFlows } from './conditions.ts';
import { triggerOf, type TriggerResult } from './triggers.ts';

export type BpmnImport =
  { ok: true; file: FlowsFile; warnings: string[] } | { ok: false; errors: string[] };

/** Sub-processes nested deeper than this are not opened (a sub-flow fails at depth 17 anyway). */
const MAX_SUBPROCESS_DEPTH = 16;

/**
 * Reads a BPMN 2.0 file as `flows/1` (docs/bpmn.md has the mapping): one flow per process, and
 * one per embedded sub-process. What has no meaning in flow/1 is never dropped: it comes in as a
 * problem noted on its node or edge (shared/unmapped.ts), or, where it changes nothing that runs
 * (lanes, annotations, message flows between pools), as a warning. Refuses what is not BPMN.
 */
export async function importBpmn(xml: string): Promise<BpmnImport> {
  const read = await readBpmn(xml);
  if (!read.ok) return read;
  const warnings = [...read.warnings];
  const defs = read.definitions;
  if (defs.$type !== 'bpmn:Definitions') {
    return { ok: false, errors: ['not BPMN: the root element is not <definitions>'] };
  }
  const roots = many(defs, 'rootElements');
  const processes = roots.filter((r) => r.$type === 'bpmn:Process');
  const participants = roots
    .filter((r) => r.$type === 'bpmn:Collaboration')
    .flatMap((c) => many(c, 'participants'));
  const messageFlows = roots
    .filter((r) => r.$type === 'bpmn:Collaboration')
    .flatMap((c) => many(c, 'messageFlows'));
  if (messageFlows.length > 0) {
    warnings.push(
      `${messageFlows.length} message flow(s) between pools not kept: flow/1 sends no messages between processes; each receiving node waits for an event named after its message`,
    );
  }
  const ordered = [
    ...participants.map((p) => one(p, 'processRef')).filter((p): p is El => p !== undefined),
    ...processes,
  ].filter((p, i, all) => all.indexOf(p) === i);
  if (ordered.length === 0) return { ok: false, errors: ['the file holds no BPMN process'] };

  const ctx: Context = {
    shapes: shapesOf(defs),
    // Only a language the file names: bpmn-moddle fills in BPMN's default (XPath) otherwise, and
    // modellers that write JUEL or JSONata conditions rarely name one.
    expressionLanguage: Object.hasOwn(defs, 'expressionLanguage')
      ? text(defs, 'expressionLanguage')
      : undefined,
    flowIds: new Map(),
    takenFlowIds: new Set(),
    warnings,
  };
  const poolName = new Map(participants.map((p) => [one(p, 'processRef'), text(p, 'name')]));
  for (const p of ordered) ctx.flowIds.set(text(p, 'id') ?? '', flowIdFor(p, ctx));

  const pending: Container[] = ordered.map((p) => ({
    el: p,
    flowId: ctx.flowIds.get(text(p, 'id') ?? '')!,
    name: text(p, 'name') || poolName.get(p) || text(defs, 'name') || undefined,
    depth: 0,
  }));
  const flows: Flow[] = [];
  while (pending.length > 0) flows.push(mapContainer(pending.shift()!, ctx, pending));

  const file = { $schema: schemaUrl('flows/1'), format: 'flows/1' as const, flows };
  // A safety net: whatever the mapping made must be a file the parser reads.
  const checked = flowsSchema.safeParse(file);
  if (!checked.success) {
    return { ok: false, errors: [`the mapping made an invalid flow: ${checked.error.message}`] };
  }
  return { ok: true, file: { $schema: file.$schema, ...checked.data }, warnings };
}

interface Context {
  shapes: Map<El, Bounds>;
  expressionLanguage: string | undefined;
  /** Flow ids by the BPMN id of their process or sub-process. */
  flowIds: Map<string, string>;
  takenFlowIds: Set<string>;
  warnings: string[];
}

interface Container {
  el: El;
  flowId: string;
  name: string | undefined;
  depth: number;
  origin?: { x: number; y: number };
}

/** A BPMN id as a flow/1 id: no "/", not a prototype key, never empty. */
export function safeId(raw: string | undefined, fallback: string): string {
  const id = (raw ?? '').replace(/\//g, '_');
  if (id === '') return fallback;
  return RESERVED_KEYS.includes(id) ? `${id}_` : id;
}

function flowIdFor(el: El, ctx: Context): string {
  let id = safeId(text(el, 'localId') ?? text(el, 'id'), 'process');
  for (let n = 2; ctx.takenFlowIds.has(id); n++) id = `${safeId(text(el, 'id'), 'process')}-${n}`;
  ctx.takenFlowIds.add(id);
  return id;
}

function shapesOf(defs: El): Map<El, Bounds> {
  const shapes = new Map<El, Bounds>();
  for (const diagram of many(defs, 'diagrams')) {
    for (const shape of many(one(diagram, 'plane'), 'planeElement')) {
      const el = one(shape, 'bpmnElement');
      const b = one(shape, 'bounds') as unknown as Bounds | undefined;
      if (el && b && [b.x, b.y, b.width, b.height].every(Number.isFinite)) shapes.set(el, b);
    }
  }
  return shapes;
}

const NOT_NODES = new Set([
  'bpmn:SequenceFlow',
  'bpmn:DataObject',
  'bpmn:DataObjectReference',
  'bpmn:DataStoreReference',
]);
const TASKS = new Set([
  'bpmn:Task',
  'bpmn:ServiceTask',
  'bpmn:ScriptTask',
  'bpmn:ManualTask',
  'bpmn:BusinessRuleTask',
  'bpmn:SendTask',
]);

/** Where an element's flow/1 side is: its node, and the trigger it stands for, if any. */
interface Alias {
  node: string;
  trigger?: string;
}

/** Names an element in a message: `user task "Approve" (Task_1)`. */
export function describeElement(el: El): string {
  const kind = localName(el.$type)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const name = text(el, 'name');
  return name ? `${kind} ${quote(name)} (${el.id ?? '?'})` : `${kind} ${el.id ?? '?'}`;
}

function mapContainer(c: Container, ctx: Context, pending: Container[]): Flow {
  const elements = many(c.el, 'flowElements');
  const sequenceFlows = elements.filter((e) => e.$type === 'bpmn:SequenceFlow');
  const flowNodes = elements.filter((e) => !NOT_NODES.has(e.$type));
  const incoming = new Map<El, El[]>();
  const outgoing = new Map<El, El[]>();
  for (const f of sequenceFlows) {
    const from = one(f, 'sourceRef');
    const to = one(f, 'targetRef');
    if (from) outgoing.set(from, [...(outgoing.get(from) ?? []), f]);
    if (to) incoming.set(to, [...(incoming.get(to) ?? []), f]);
  }
  const ins = (el: El) => incoming.get(el) ?? [];
  const outs = (el: El) => {
    // BPMN engines take a gateway's outgoing flows in the order of its <outgoing> list.
    const listed = many(el, 'outgoing');
    const all = outgoing.get(el) ?? [];
    return listed.length === all.length && all.every((f) => listed.includes(f)) ? listed : all;
  };
  const index = new Map(flowNodes.map((el, i) => [el, i]));
  const idOf = (el: El) => safeId(text(el, 'localId') ?? el.id, `node-${index.get(el) ?? 0}`);

  const nodes = new Map<El, FlowNode>();
  const notes = new Map<string, string[]>();
  const edgeNotes = new Map<string, string[]>();
  const noteNode = (id: string, message: string) =>
    notes.set(id, [...(notes.get(id) ?? []), message]);
  const noteEdge = (id: string, message: string) =>
    edgeNotes.set(id, [...(edgeNotes.get(id) ?? []), message]);
  const alias = new Map<El, Alias>();
  const internal = new Set<El>();
  const position = (el: El) => {
    const b = ctx.shapes.get(el);
    return b ? { position: positionOf(b, c.origin) } : {};
  };
  const base = (el: El) => ({
    id: idOf(el),
    ...(text(el, 'name') ? { label: text(el, 'name') } : {}),
    ...position(el),
    ...dependsOf(el),
    ...unknownFields(el, ctx),
  });
  const placeholder = (el: El, why: string): FlowNode => {
    noteNode(idOf(el), `${describeElement(el)}: ${why}`);
    return { ...base(el), kind: 'work' } as FlowNode;
  };
  const addTrigger = (host: FlowNode, t: TriggerResult, el: El): string | undefined => {
    if (!('trigger' in t) || host.kind !== 'continue-after') return undefined;
    host.on.push(t.trigger);
    for (const p of t.problems) noteNode(host.id, `${describeElement(el)}: ${p}`);
    return t.trigger.id;
  };

  // Event-based gateways first: each, with the catch events it leads to, is one continue-after.
  for (const g of flowNodes.filter((e) => e.$type === 'bpmn:EventBasedGateway')) {
    const node: FlowNode = { ...base(g), kind: 'continue-after', on: [] } as FlowNode;
    nodes.set(g, node);
    for (const f of outs(g)) {
      const target = one(f, 'targetRef');
      if (!target || alias.has(target)) continue;
      const isCatch =
        target.$type === 'bpmn:IntermediateCatchEvent' || target.$type === 'bpmn:ReceiveTask';
      const t = isCatch ? triggerOf(target, ctx.expressionLanguage) : undefined;
      if (!t || !('trigger' in t)) {
        noteNode(
          node.id,
          `leads to ${describeElement(target)}, ${t ? t.problem : 'which is not an event an event-based gateway can wait for'}`,
        );
        continue;
      }
      alias.set(target, { node: node.id, trigger: addTrigger(node, t, target)! });
      internal.add(f);
      for (const other of ins(target).filter((x) => one(x, 'sourceRef') !== g)) {
        noteEdge(
          other.id ?? '',
          `led to ${describeElement(target)} after the event-based gateway; it now leads to the gateway, which waits for all its events`,
        );
      }
    }
    // "Wait for any of these, then go on": catch events that meet at one exclusive gateway.
    const caught = new Set([...alias].filter(([, a]) => a.node === node.id).map(([el]) => el));
    const merges = new Set(
      [...caught]
        .flatMap((el) => outs(el).map((f) => one(f, 'targetRef')))
        // (An export marks its own with wakeflow:kind="merge", of whichever gateway type.)
        .filter(
          (m): m is El =>
            (m?.$type === 'bpmn:ExclusiveGateway' && text(m, 'kind') === undefined) ||
            text(m, 'kind') === 'merge',
        ),
    );
    for (const m of merges) {
      const from = ins(m);
      if (from.length === 0 || !from.every((f) => caught.has(one(f, 'sourceRef')!))) continue;
      alias.set(m, { node: node.id });
      for (const f of from) internal.add(f);
    }
  }

  for (const el of flowNodes) {
    if (nodes.has(el) || alias.has(el) || el.$type === 'bpmn:BoundaryEvent') continue;
    nodes.set(el, mapNode(el));
  }

  // Boundary events: a timer or message on a person's task (or a receive task) is one more
  // trigger of its continue-after, since the first to fire wins; any other is noted.
  for (const b of flowNodes.filter((e) => e.$type === 'bpmn:BoundaryEvent')) {
    const host = one(b, 'attachedToRef');
    const hostNode = host ? nodes.get(host) : undefined;
    const t = triggerOf(b, ctx.expressionLanguage);
    const interrupting = b.cancelActivity !== false;
    if (
      hostNode?.kind === 'continue-after' &&
      !alias.has(host!) &&
      interrupting &&
      'trigger' in t
    ) {
      alias.set(b, { node: hostNode.id, trigger: addTrigger(hostNode, t, b)! });
      continue;
    }
    const on = host ? ` on ${describeElement(host)}` : '';
    nodes.set(
      b,
      placeholder(
        b,
        `a boundary event${on} has no meaning in flow/1 ${interrupting ? '' : '(non-interrupting) '}unless it is a timer or message on a user or receive task; model it with a continue-after, then delete this node`,
      ),
    );
  }

  function mapNode(el: El): FlowNode {
    const type = el.$type;
    for (const problem of activityProblems(el))
      noteNode(idOf(el), `${describeElement(el)}: ${problem}`);
    if (type === 'bpmn:StartEvent') {
      if (many(el, 'eventDefinitions').length > 0) {
        ctx.warnings.push(
          `${describeElement(el)} is read as a plain start: a process of the flow is started by whoever starts it, not by the event`,
        );
      }
      return { ...base(el), kind: 'start' } as FlowNode;
    }
    if (type === 'bpmn:EndEvent') {
      const defs = many(el, 'eventDefinitions').map((d) => d.$type);
      const node = { ...base(el), kind: 'end' } as FlowNode & { terminate?: boolean };
      if (defs.includes('bpmn:TerminateEventDefinition')) node.terminate = true;
      for (const d of defs.filter((d) => d !== 'bpmn:TerminateEventDefinition')) {
        if (d === 'bpmn:MessageEventDefinition') {
          ctx.warnings.push(
            `${describeElement(el)} sends a message; flow/1 sends none, so it only ends`,
          );
        } else
          noteNode(
            node.id,
            `${describeElement(el)}: ${eventKind(d)} end events have no meaning in flow/1`,
          );
      }
      return node;
    }
    const callTask = type === 'bpmn:ServiceTask' && extensions(el, 'wakeflow:Call').length > 0;
    if (TASKS.has(type) && !callTask) {
      if (type === 'bpmn:SendTask') {
        ctx.warnings.push(
          `${describeElement(el)} sends a message; flow/1 sends none, so it is a work node`,
        );
      }
      if (type === 'bpmn:ScriptTask' && text(one(el, 'script') ?? el, 'script')) {
        ctx.warnings.push(
          `${describeElement(el)}: its script is not run; flow/1's work nodes set context paths`,
        );
      }
      const set = setOf(el);
      return { ...base(el), kind: 'work', ...(set ? { set } : {}) } as FlowNode;
    }
    if (type === 'bpmn:IntermediateCatchEvent' && many(el, 'eventDefinitions').length === 0) {
      // A wait for nothing: a continue-after that validation says has no trigger.
      return { ...base(el), kind: 'continue-after', on: [] } as FlowNode;
    }
    if (
      type === 'bpmn:UserTask' ||
      type === 'bpmn:ReceiveTask' ||
      type === 'bpmn:IntermediateCatchEvent' ||
      // A service task that carries a call is a continue-after waiting on it (docs/bpmn.md).
      callTask
    ) {
      const t = triggerOf(el, ctx.expressionLanguage);
      if (!('trigger' in t)) return placeholder(el, t.problem);
      const node = { ...base(el), kind: 'continue-after', on: [] } as FlowNode;
      addTrigger(node, t, el);
      return node;
    }
    if (type === 'bpmn:IntermediateThrowEvent') {
      const defs = many(el, 'eventDefinitions').map((d) => d.$type);
      if (defs.length === 0) return { ...base(el), kind: 'work' } as FlowNode;
      if (defs.every((d) => d === 'bpmn:MessageEventDefinition')) {
        ctx.warnings.push(
          `${describeElement(el)} sends a message; flow/1 sends none, so it is a work node`,
        );
        return { ...base(el), kind: 'work' } as FlowNode;
      }
      return placeholder(
        el,
        `throwing a ${defs.map(eventKind).join(' and ')} event has no meaning in flow/1`,
      );
    }
    if (
      type === 'bpmn:ExclusiveGateway' ||
      type === 'bpmn:ParallelGateway' ||
      type === 'bpmn:InclusiveGateway'
    ) {
      const converging = ins(el).length > 1 && type !== 'bpmn:ExclusiveGateway';
      const kind =
        text(el, 'kind') === 'join' || text(el, 'kind') === 'fanout' ? text(el, 'kind') : undefined;
      if ((kind ?? (converging ? 'join' : 'fanout')) === 'fanout')
        return { ...base(el), kind: 'fanout' } as FlowNode;
      const sources = ins(el)
        .map((f) => one(f, 'sourceRef'))
        .filter((s): s is El => s !== undefined);
      const depends = [...new Set(sources.map((s) => alias.get(s)?.node ?? idOf(s)))];
      return { depends, ...base(el), kind: 'join' } as FlowNode;
    }
    if (type === 'bpmn:CallActivity') {
      const called = text(el, 'calledElement');
      const flow = called === undefined ? '' : (ctx.flowIds.get(called) ?? safeId(called, ''));
      if (!called)
        noteNode(idOf(el), `${describeElement(el)}: names no process to call (calledElement)`);
      return { ...base(el), kind: 'subflow', flow } as FlowNode;
    }
    if (
      type === 'bpmn:SubProcess' ||
      type === 'bpmn:Transaction' ||
      type === 'bpmn:AdHocSubProcess'
    ) {
      if (el.triggeredByEvent === true) {
        return placeholder(
          el,
          'an event sub-process has no meaning in flow/1; its elements were not imported',
        );
      }
      if (type !== 'bpmn:SubProcess') {
        noteNode(
          idOf(el),
          `${describeElement(el)}: ${type === 'bpmn:Transaction' ? 'transactions and their cancellation' : 'ad-hoc order'} have no meaning in flow/1; it runs as a plain sub-flow`,
        );
      }
      if (c.depth + 1 > MAX_SUBPROCESS_DEPTH) {
        return placeholder(
          el,
          `sub-processes nest more than ${MAX_SUBPROCESS_DEPTH} deep; this one was not imported`,
        );
      }
      const flowId = flowIdFor(el, ctx);
      const b = ctx.shapes.get(el);
      pending.push({
        el,
        flowId,
        name: text(el, 'name') || undefined,
        depth: c.depth + 1,
        ...(b ? { origin: { x: b.x, y: b.y } } : {}),
      });
      return { ...base(el), kind: 'subflow', flow: flowId } as FlowNode;
    }
    return placeholder(el, `${localName(type)} has no meaning in flow/1`);
  }

  // In the order the file lists them, whatever order they were mapped in.
  const flowNodesOut = flowNodes.flatMap((el) => nodes.get(el) ?? []);
  const edges: FlowEdge[] = [];
  const edgeOf = new Map<El, FlowEdge>();
  for (const f of sequenceFlows) {
    if (internal.has(f)) continue;
    const from = one(f, 'sourceRef');
    const to = one(f, 'targetRef');
    if (!from || !to) {
      ctx.warnings.push(
        `sequence flow ${f.id ?? '?'} is missing its source or target and was left out`,
      );
      continue;
    }
    const src = alias.get(from) ?? { node: nodes.get(from)?.id ?? idOf(from) };
    const id = safeId(text(f, 'localId') ?? f.id, `edge-${edges.length}`);
    const trigger = src.trigger ?? text(f, 'trigger');
    const edge: FlowEdge = {
      id,
      from: src.node,
      to: alias.get(to)?.node ?? nodes.get(to)?.id ?? idOf(to),
      ...(trigger !== undefined ? { trigger } : {}),
      ...unknownFields(f, ctx),
    };
    const cond = conditionOf(f, ctx.expressionLanguage);
    if (from.$type === 'bpmn:ParallelGateway' && cond.when !== undefined) {
      ctx.warnings.push(
        `sequence flow ${f.id}: a condition out of a parallel gateway is ignored, as BPMN ignores it`,
      );
    } else {
      if (cond.when !== undefined) edge.when = cond.when;
      for (const p of cond.problems) noteEdge(id, p);
    }
    edges.push(edge);
    edgeOf.set(f, edge);
  }
  defaultFlows(flowNodes, edgeOf, outs, noteEdge);
  exclusiveFlows(
    // A gateway that an export marked is flow/1's already: every edge whose condition holds.
    flowNodes.filter(
      (el) => el.$type === 'bpmn:ExclusiveGateway' && text(el, 'kind') === undefined,
    ),
    edgeOf,
    outs,
  );

  const artifacts = many(c.el, 'artifacts').length;
  const data = elements.filter(
    (e) => NOT_NODES.has(e.$type) && e.$type !== 'bpmn:SequenceFlow',
  ).length;
  const lanes = many(c.el, 'laneSets').flatMap((s) => many(s, 'lanes')).length;
  if (artifacts + data + lanes > 0) {
    ctx.warnings.push(
      `flow ${quote(c.flowId)}: ${[
        artifacts ? `${artifacts} annotation(s), group(s) or association(s)` : '',
        data ? `${data} data object(s) or store(s)` : '',
        lanes ? `${lanes} lane(s)` : '',
      ]
        .filter(Boolean)
        .join(', ')} not kept: they change nothing that runs`,
    );
  }

  return {
    format: 'flow/1',
    id: c.flowId,
    ...(c.name ? { name: c.name } : {}),
    ...unknownFields(c.el, ctx),
    // A node or edge that an export kept its notes for (wakeflow:fields) keeps those, as written.
    nodes: flowNodesOut.map((n) => (kept(n) ? n : noteOnNode(n, notes.get(n.id) ?? []))),
    edges: edges.map((e) => (kept(e) ? e : noteOnEdge(e, edgeNotes.get(e.id) ?? []))),
  } as Flow;
}

const kept = (item: object) => Object.hasOwn(item, UNMAPPED_FIELD);

function activityProblems(el: El): string[] {
  const out: string[] = [];
  const loop = one(el, 'loopCharacteristics');
  if (loop) {
    out.push(
      `${loop.$type === 'bpmn:MultiInstanceLoopCharacteristics' ? 'multi-instance' : 'loop'} markers have no meaning in flow/1; it runs once`,
    );
  }
  if (el.isForCompensation === true) out.push('compensation has no meaning in flow/1');
  return out;
}

export function eventKind(definitionType: string): string {
  return localName(definitionType)
    .replace(/EventDefinition$/, '')
    .toLowerCase();
}

/** A work node's `set`, from its wakeflow:set extension elements, in order. */
function setOf(el: El): Record<string, string> | undefined {
  const sets = extensions(el, 'wakeflow:Set');
  if (sets.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const s of sets) {
    const path = text(s, 'path');
    if (path !== undefined && !RESERVED_KEYS.includes(path))
      out[path] = text(s, 'expression') ?? '';
  }
  return out;
}

function dependsOf(el: El): { depends?: string[] } {
  const deps = extensions(el, 'wakeflow:Depends')
    .map((d) => text(d, 'node'))
    .filter((d): d is string => d !== undefined);
  return deps.length > 0 ? { depends: deps } : {};
}

const KNOWN_FIELDS = new Set([
  'format',
  'id',
  'name',
  'nodes',
  'edges',
  'kind',
  'label',
  'position',
  'depends',
  'set',
  'on',
  'flow',
  'terminate',
  'from',
  'to',
  'when',
  'trigger',
  '$schema',
]);

/** Unknown fields that an export kept as JSON (wakeflow:fields), back as fields. */
function unknownFields(el: El, ctx: Context): Record<string, unknown> {
  const json = extensions(el, 'wakeflow:Fields')[0];
  if (!json) return {};
  let value: unknown;
  try {
    value = JSON.parse(text(json, 'json') ?? '');
  } catch {
    ctx.warnings.push(`${describeElement(el)}: its wakeflow:fields are not JSON and were left out`);
    return {};
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter(([k]) => !KNOWN_FIELDS.has(k) && !RESERVED_KEYS.includes(k)),
  );
}

import BpmnModdle from 'bpmn-moddle';
import * as elements from 'bpmn-elements';
import { Engine } from 'bpmn-engine';
import serializer, { TypeResolver, type SerializableContext } from 'moddle-context-serializer';
import { CHAIN_LENGTH, FANOUT_BRANCHES, LOOP_PASSES } from '../flows.ts';

/**
 * The benchmark flows as BPMN 2.0 for bpmn-engine, in its fastest honest setup:
 * - each definition is parsed and serialized once (bpmn-moddle + moddle-context-serializer, the
 *   `addSource` recipe of bpmn-engine's API docs) and every run starts a new `Engine` on that
 *   `sourceContext`, so no run parses XML;
 * - a work node's assignment is a script task, and its scripts are compiled once, by body, to
 *   plain functions (`FastScripts`, through the engine's documented `scripts` option): the
 *   default handler runs every script in a new `vm` context, which made the chain of 100 some
 *   10–50% slower here (the engine's message broker, not the scripts, takes most of its time);
 * - nothing is logged: a no-op `Logger` (the default is the `debug` package, which still checks
 *   whether to print on every call).
 */

const NS = 'http://www.omg.org/spec/BPMN/20100524/MODEL';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

function definitions(id: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions id="${id}Definitions" xmlns="${NS}" xmlns:xsi="${XSI}" targetNamespace="http://wakeflow.bench">
  <process id="${id}Process" isExecutable="true">
${body}
  </process>
</definitions>`;
}

const flow = (id: string, from: string, to: string, condition?: string) =>
  condition === undefined
    ? `    <sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}" />`
    : `    <sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}">
      <conditionExpression xsi:type="tFormalExpression" language="javascript">${condition}</conditionExpression>
    </sequenceFlow>`;

const script = (id: string, body: string) =>
  `    <scriptTask id="${id}" scriptFormat="javascript"><script>${body}</script></scriptTask>`;

const INCREMENT = 'environment.variables.count = environment.variables.count + 1; next();';

/** start → parallel split → 10 script tasks (each sets its flag) → parallel join → end. */
export function fanoutBpmn(branches = FANOUT_BRANCHES): string {
  const parts = ['    <startEvent id="start" />', flow('f0', 'start', 'split')];
  parts.push('    <parallelGateway id="split" />', '    <parallelGateway id="join" />');
  for (let i = 0; i < branches; i++) {
    parts.push(flow(`fs${i}`, 'split', `b${i}`));
    parts.push(script(`b${i}`, `environment.variables.b${i} = true; next();`));
    parts.push(flow(`fj${i}`, `b${i}`, 'join'));
  }
  parts.push(flow('fend', 'join', 'end'), '    <endEvent id="end" />');
  return definitions('fanout', parts.join('\n'));
}

/** start → 100 script tasks in a row, each `count + 1` → end. */
export function chainBpmn(length = CHAIN_LENGTH): string {
  const parts = ['    <startEvent id="start" />'];
  let previous = 'start';
  for (let i = 0; i < length; i++) {
    parts.push(flow(`f${i}`, previous, `w${i}`), script(`w${i}`, INCREMENT));
    previous = `w${i}`;
  }
  parts.push(flow('fend', previous, 'end'), '    <endEvent id="end" />');
  return definitions('chain', parts.join('\n'));
}

/**
 * tick (`count + 1`) → sleep, an intermediate timer catch event of PT1H → an exclusive gateway
 * → back to tick while `count < 1000`, else (the default flow) end. This is BPMN's own
 * equivalent of wakeflow's continue-after with a timer; the driver fires the timer each pass
 * through a `Timers` whose clock it owns (`ManualTimers`), as wakeflow's driver does.
 */
export function loopBpmn(passes = LOOP_PASSES): string {
  return definitions(
    'loop',
    [
      '    <startEvent id="start" />',
      flow('f0', 'start', 'tick'),
      script('tick', INCREMENT),
      flow('f1', 'tick', 'sleep'),
      `    <intermediateCatchEvent id="sleep">
      <timerEventDefinition><timeDuration xsi:type="tFormalExpression">PT1H</timeDuration></timerEventDefinition>
    </intermediateCatchEvent>`,
      flow('f2', 'sleep', 'gate'),
      '    <exclusiveGateway id="gate" default="fdone" />',
      flow('fagain', 'gate', 'tick', `next(null, environment.variables.count &lt; ${passes});`),
      flow('fdone', 'gate', 'end'),
      '    <endEvent id="end" />',
    ].join('\n'),
  );
}

/**
 * review (a user task: a person's input) → apply (`count + 1`) → review again: the same process
 * as wakeflow's `reviewFlow`.
 */
export function reviewBpmn(): string {
  return definitions(
    'review',
    [
      '    <startEvent id="start" />',
      flow('f0', 'start', 'review'),
      '    <userTask id="review" />',
      flow('f1', 'review', 'apply'),
      script('apply', INCREMENT),
      flow('f2', 'apply', 'review'),
    ].join('\n'),
  );
}

/** Parses and serializes a BPMN definition once, as bpmn-engine's `addSource` example does. */
export async function parseOnce(xml: string): Promise<SerializableContext> {
  const moddle = new BpmnModdle();
  const context = await moddle.fromXML(xml);
  if (context.warnings.length > 0)
    throw new Error(`bpmn: ${context.warnings.map((w: { message: string }) => w.message)}`);
  return serializer(context, TypeResolver({ ...elements }));
}

type ScriptFn = (environment: unknown, next: (err?: unknown, result?: unknown) => void) => void;
const compiled = new Map<string, ScriptFn>();

/**
 * Scripts compiled once per body to functions of `(environment, next)`, shared by every engine.
 * It implements bpmn-elements' `IScripts` (register, getScript), for script tasks and
 * JavaScript sequence-flow conditions.
 */
export class FastScripts {
  private byId = new Map<string, { execute(ctx: ScriptContext, next: Next): void }>();

  register(activity: {
    id: string;
    type: string;
    behaviour: { scriptFormat?: string; script?: string; conditionExpression?: Cond };
  }) {
    const { id, type, behaviour } = activity;
    const body =
      type === 'bpmn:SequenceFlow' ? behaviour.conditionExpression?.body : behaviour.script;
    if (body === undefined) return undefined;
    let fn = compiled.get(body);
    if (!fn) compiled.set(body, (fn = new Function('environment', 'next', body) as ScriptFn));
    const run = fn;
    const entry = { execute: (ctx: ScriptContext, next: Next) => run(ctx.environment, next) };
    this.byId.set(id, entry);
    return entry;
  }

  getScript(_language: string, identifier: { id: string }) {
    return this.byId.get(identifier.id);
  }
}

type Cond = { body?: string; language?: string };
type Next = (err?: unknown, result?: unknown) => void;
type ScriptContext = { environment: unknown };

/**
 * A clock the driver owns: bpmn-elements' timers call `setTimeout` of this object, which only
 * remembers the callback; `fireNext` runs it, as a due timer would.
 */
export class ManualTimers {
  private pending: (() => void)[] = [];
  readonly timers: elements.Timers;

  constructor() {
    this.timers = new elements.Timers({
      setTimeout: ((callback: (...args: unknown[]) => void, _delay: number, ...args: unknown[]) => {
        const fire = () => callback(...args);
        this.pending.push(fire);
        return fire;
      }) as unknown as typeof setTimeout,
      clearTimeout: ((ref: unknown) => {
        this.pending = this.pending.filter((f) => f !== ref);
      }) as unknown as typeof clearTimeout,
    });
  }

  fireNext(): boolean {
    const fire = this.pending.shift();
    fire?.();
    return fire !== undefined;
  }
}

export interface EngineOptions {
  /** Absent when the engine is to be recovered from a state that carries its own source. */
  sourceContext?: SerializableContext;
  timers?: elements.Timers;
}

const quiet = () => {};
const silentLogger = () => ({ debug: quiet, error: quiet, warn: quiet, info: quiet });

/** A new engine on a parsed definition: what every run starts with. */
export function newEngine({ sourceContext, timers }: EngineOptions): Engine {
  return new Engine({
    name: 'bench',
    ...(sourceContext ? { sourceContext } : {}),
    scripts: new FastScripts() as never,
    Logger: silentLogger as never,
    ...(timers ? { timers: timers as never } : {}),
  });
}

/** Executes a definition to its end; resolves with the process's variables. */
export function runToEnd(options: EngineOptions, variables: Record<string, unknown> = {}) {
  const engine = newEngine(options);
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    void engine.execute({ variables }, (err, execution) => {
      if (err) reject(err);
      else resolve(variablesOf(execution));
    });
  });
}

/** Runs the timer loop to its end, firing the timer each time the process sleeps. */
export async function runLoop(sourceContext: SerializableContext) {
  const clock = new ManualTimers();
  const engine = newEngine({ sourceContext, timers: clock.timers });
  const ended = new Promise<Record<string, unknown>>((resolve, reject) => {
    engine.once('end', (execution) => resolve(variablesOf(execution)));
    engine.once('error', reject);
  });
  await engine.execute({ variables: { count: 0 } });
  let done = false;
  void ended.then(() => (done = true));
  // Between two passes the engine settles in a few microtasks; a process that neither ends nor
  // sets a timer would spin here, so give up after a generous number of idle turns.
  for (let idle = 0; !done;) {
    if (clock.fireNext()) idle = 0;
    else if (++idle > 100_000) throw new Error('bpmn: the loop neither ended nor set a timer');
    else await Promise.resolve();
  }
  return ended;
}

function variablesOf(execution: Engine['execution'] | undefined): Record<string, unknown> {
  const definitions = (execution as unknown as { definitions: DefinitionLike[] }).definitions;
  return definitions[0]!.getProcesses()[0]!.environment.variables;
}

interface DefinitionLike {
  getProcesses(): { environment: { variables: Record<string, unknown> } }[];
}

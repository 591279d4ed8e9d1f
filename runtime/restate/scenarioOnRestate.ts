import { addDuration, parseDuration } from '../../shared/duration.ts';
import type { Flow } from '../../shared/schema.ts';
import type { Scenario, ScenarioStep } from '../report/scenario.ts';
import type { SimulationReport } from '../report/processReport.ts';
import type { Answer, IngressClient } from './ingressClient.ts';

export interface RealTimeOptions {
  /** Put before every flow, process and event name, so that runs share one server. */
  prefix: string;
  /**
   * How far, in ms, every step of the scenario is from any timer, in the scenario's own time. A
   * step must be over within half of it, and no timer may fall due within half of it of a step;
   * else the run is refused with `TooSlow`, since real time then no longer kept the scenario's
   * order (a slow machine, not a wrong runtime).
   */
  marginMs?: number;
  /** How often, and how many times, to ask whether everything has come to rest after a step. */
  pollMs?: number;
  polls?: number;
}

/** A scenario's report from a Restate server, without the clock, waits' due times or sizes. */
export type RealTimeReport = Pick<SimulationReport, 'errors'> & {
  processes: Record<
    string,
    Omit<SimulationReport['processes'][string], 'snapshotBytes' | 'waits'> & {
      waits: { node: string; triggers: string[] }[];
    }
  >;
};

/** A run whose steps could not keep the scenario's margins: run it again with longer timers. */
export class TooSlow extends Error {}

/**
 * Runs a `scenario/1` on a Restate server in real time: `advance` waits until that much time has
 * gone by since the scenario began, so timers fire on Restate's own clock. After every step it
 * waits until every process is at rest (none running, no timer due unfired, the event index
 * told of every wait), as `flow simulate` runs every process until it stops.
 */
export async function runOnRestate(
  scenario: Scenario,
  api: IngressClient,
  options: RealTimeOptions,
): Promise<RealTimeReport> {
  const { prefix } = options;
  const name = (id: string) => `${prefix}${id}`;
  const deploy = (flows: Flow[]) =>
    api.deploy(JSON.stringify({ format: 'flows/1', flows: flows.map((f) => prefixed(f, prefix)) }));
  const deployed = await deploy(scenario.flows);
  if (!deployed.ok) throw new Error(`the scenario's flows were refused: ${deployed.error}`);
  const processes: string[] = [];
  const errors: RealTimeReport['errors'] = [];
  // The scenario's clock: where real time must have reached when each advance is over.
  let target = Date.now();
  let before: Rest[] = [];
  for (const [index, step] of scenario.steps.entries()) {
    if ('advance' in step) {
      target = addDuration(target, parseDuration(step.advance)!);
      const wait = target - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    } else {
      const answer = await runStep(step, api, name, deploy);
      if ('start' in step && answer.ok) processes.push(step.as);
      if (!answer.ok) errors.push({ step: index, error: unprefixed(answer.error, prefix) });
    }
    const rests = await atRest(api, processes.map(name), options);
    const problem = outOfOrder('advance' in step, target, before, rests, options.marginMs ?? 1000);
    if (problem) throw new TooSlow(`step ${index}: ${problem}`);
    before = rests;
  }
  const report: RealTimeReport = { processes: {}, errors };
  for (const id of processes) {
    const status = await api.status(name(id));
    if (!status.ok) throw new Error(status.error);
    const s = status.value;
    report.processes[id] = JSON.parse(
      unprefixed(
        JSON.stringify({
          flow: s.flow,
          status: s.status,
          waits: s.waits.map((w) => ({ node: w.node, triggers: w.triggers })),
          visits: s.visits,
          passes: s.passes,
          changes: s.changes,
          error: s.error,
          context: s.context,
        }),
        prefix,
      ),
    ) as RealTimeReport['processes'][string];
  }
  return report;
}

function runStep(
  step: ScenarioStep,
  api: IngressClient,
  name: (id: string) => string,
  deploy: (flows: Flow[]) => Promise<Answer<unknown>>,
): Promise<Answer<unknown>> {
  if ('start' in step)
    return api.start(name(step.as), {
      flow: name(step.start),
      ...(step.context !== undefined ? { context: step.context } : {}),
      ...(step.shareContextWith !== undefined
        ? { shareContextWith: name(step.shareContextWith) }
        : {}),
    });
  if ('event' in step)
    return api.event(
      name(step.event),
      step.payload,
      step.to === undefined ? undefined : name(step.to),
    );
  if ('human' in step)
    return api.human(name(step.human), {
      node: step.node,
      input: step.input,
      ...(step.trigger !== undefined ? { trigger: step.trigger } : {}),
    });
  if ('setContext' in step) return api.setContext(name(step.setContext), step.path, step.value);
  if ('replaceFlow' in step) return deploy([step.replaceFlow]);
  if ('resolve' in step) return api.resolve(name(step.resolve), step.choice);
  if ('stop' in step) return api.control(name(step.stop), 'stop');
  if ('resume' in step) return api.control(name(step.resume), 'resume');
  if ('retry' in step) return api.control(name(step.retry), 'retry');
  throw new Error('advance is not a call');
}

type Rest = { status: string; due: number | null; events: string[]; callDue?: number | null };

/**
 * Whether real time may have put a timer on the other side of a step than the scenario's clock
 * did: a timer due within half the margin of the step's time (drift), or, for a step that is not
 * an advance, a timer pending before the step that fired while the step was being taken, or a
 * timer the step set more than half the margin late. A slow step that neither set a timer nor
 * had one fire meanwhile changes nothing and is not counted.
 */
function outOfOrder(
  advance: boolean,
  target: number,
  before: Rest[],
  after: Rest[],
  marginMs: number,
): string | undefined {
  const now = Date.now();
  for (const r of [...before, ...after]) {
    if (r.due === null) continue;
    if (Math.abs(r.due - target) < marginMs / 2)
      return `a timer falls due ${r.due - target} ms from the step's time`;
  }
  if (advance) return undefined;
  const late = now - target;
  const fired = before.find((r) => r.due !== null && r.due <= now);
  if (fired) return `a timer fell due while the step was taken, ${late} ms late`;
  // A timer the step set starts late by as much as the step was: that is the scenario's to bear
  // only up to half the margin.
  const set = after.some((r, i) => r.due !== null && r.due !== before[i]?.due);
  return set && late > marginMs / 2 ? `the step set a timer ${late} ms late` : undefined;
}

/**
 * Asks until no process is running, none has a timer due, and the event index knows each wait;
 * returns where each process rests.
 */
async function atRest(
  api: IngressClient,
  ids: string[],
  { pollMs = 50, polls = 200 }: RealTimeOptions,
): Promise<Rest[]> {
  for (let i = 0; i < polls; i++) {
    const rests = await restful(api, ids);
    if (rests) return rests;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`the processes did not come to rest within ${polls} polls of ${pollMs} ms`);
}

async function restful(api: IngressClient, ids: string[]): Promise<Rest[] | undefined> {
  const now = Date.now();
  const rests: Rest[] = [];
  for (const id of ids) {
    const rest = await api.rest(id);
    if (!rest.ok || !rest.value) return undefined;
    const s = rest.value;
    if (s.status === 'running') return undefined;
    if (s.status === 'waiting' && s.due !== null && s.due <= now) return undefined;
    // A call attempt due (or in flight) is work to do, as a due timer is; unlike a timer it is
    // not weighed against the steps' margins: its time is the server's answer's, not the clock's.
    if (s.status === 'waiting' && s.callDue != null && s.callDue <= now) return undefined;
    for (const event of s.events) {
      const waiting = await api.waitingFor(event);
      if (!waiting.ok || !waiting.value.includes(id)) return undefined;
    }
    rests.push(s);
  }
  return rests;
}

/**
 * The scenario with every timer and advance `factor` times as long (all in whole seconds,
 * `PT2S`): the same steps in the same order, with wider margins in real time.
 */
export function slower(scenario: Scenario, factor: number): Scenario {
  const scale = (d: string) => {
    const m = /^PT(\d+)([SM])$/.exec(d);
    if (!m) throw new Error(`only whole seconds or minutes can be scaled, got ${d}`);
    return `PT${Number(m[1]) * (m[2] === 'M' ? 60 : 1) * factor}S`;
  };
  const flows = (fs: Flow[]) =>
    fs.map((f) => ({
      ...f,
      nodes: f.nodes.map((n) =>
        n.kind === 'continue-after'
          ? {
              ...n,
              on: n.on.map((t) => (t.timer === undefined ? t : { ...t, timer: scale(t.timer) })),
            }
          : n,
      ),
    })) as Flow[];
  return {
    ...scenario,
    flows: flows(scenario.flows),
    steps: scenario.steps.map((s) => {
      if ('advance' in s) return { advance: scale(s.advance) };
      if ('replaceFlow' in s) return { replaceFlow: flows([s.replaceFlow])[0]! };
      return s;
    }),
  };
}

/** A flow with its id, its sub-flows' ids and its events' names given the prefix. */
function prefixed(flow: Flow, prefix: string): Flow {
  return {
    ...flow,
    id: prefix + flow.id,
    nodes: flow.nodes.map((n) => {
      if (n.kind === 'subflow') return { ...n, flow: prefix + n.flow };
      if (n.kind === 'continue-after')
        return {
          ...n,
          on: n.on.map((t) => (t.event === undefined ? t : { ...t, event: prefix + t.event })),
        };
      return n;
    }),
  } as Flow;
}

function unprefixed(text: string, prefix: string): string {
  return text.split(prefix).join('');
}

import {
  assertRunnable,
  chainFlow,
  CHAIN_LENGTH,
  fanoutFlow,
  FANOUT_BRANCHES,
  loopFlow,
  LOOP_PASSES,
} from './flows.ts';
import { ratio, sideBySide, type Contender, type Stats } from './harness.ts';
import * as bpmn from './peers/bpmn.ts';
import * as xstate from './peers/xstate.ts';
import { runFlow, runWithTimers } from './wakeflow.ts';

/**
 * 1. Engine throughput in memory, no persistence: the same three flows on wakeflow's pure
 * engine, XState v5 and bpmn-engine, side by side in one process. A run starts a process and
 * takes it to its end; each figure is runs per second, the median of several rounds after a
 * warm-up round.
 */

export interface EngineCase {
  flow: string;
  description: string;
  /** Runs per second, by contender. */
  opsPerSec: Record<string, Stats>;
  /** wakeflow's runs per second divided by each peer's (median of per-round ratios). */
  ratios: Record<string, number>;
}

interface Case {
  flow: string;
  description: string;
  contenders: Contender[];
  expect: (name: string, result: unknown) => void;
  rounds: number;
  sliceMs: number;
}

export async function engineBench(log: (line: string) => void): Promise<EngineCase[]> {
  const fanout = assertRunnable(fanoutFlow());
  const chain = assertRunnable(chainFlow());
  const loop = assertRunnable(loopFlow());

  const fanoutMachine = xstate.fanoutMachine();
  const chainMachine = xstate.chainMachine();
  const loopMachine = xstate.loopMachine();
  const loopEventsMachine = xstate.loopEventsMachine();

  const fanoutBpmn = await bpmn.parseOnce(bpmn.fanoutBpmn());
  const chainBpmn = await bpmn.parseOnce(bpmn.chainBpmn());
  const loopBpmn = await bpmn.parseOnce(bpmn.loopBpmn());

  const flags = Object.fromEntries(
    Array.from({ length: FANOUT_BRANCHES }, (_, i) => [`b${i}`, true]),
  );
  const hasFlags = (name: string, ctx: unknown) => {
    for (const [k, v] of Object.entries(flags))
      if ((ctx as Record<string, unknown>)[k] !== v) throw new Error(`${name}: ${k} is not set`);
  };
  const counted = (n: number) => (name: string, ctx: unknown) => {
    const count = (ctx as { count?: unknown }).count;
    if (count !== n) throw new Error(`${name}: count is ${String(count)}, not ${n}`);
  };

  const cases: Case[] = [
    {
      flow: 'fan-out 10 → join',
      description: `start, a split into ${FANOUT_BRANCHES} branches that each set a flag, a join on all of them, end`,
      contenders: [
        { name: 'wakeflow', run: async () => (await runFlow(fanout, {})).context },
        { name: 'xstate', run: () => xstate.runMachine(fanoutMachine) },
        { name: 'bpmn-engine', run: () => bpmn.runToEnd({ sourceContext: fanoutBpmn }) },
      ],
      expect: hasFlags,
      // Many short rounds: the median of per-round ratios shrugs off a busy spell of the machine.
      rounds: 15,
      sliceMs: 150,
    },
    {
      flow: `chain of ${CHAIN_LENGTH}`,
      description: `${CHAIN_LENGTH} work nodes in a row, each count ← count + 1`,
      contenders: [
        { name: 'wakeflow', run: async () => (await runFlow(chain, { count: 0 })).context },
        { name: 'xstate', run: () => xstate.runMachine(chainMachine) },
        {
          name: 'bpmn-engine',
          run: () => bpmn.runToEnd({ sourceContext: chainBpmn }, { count: 0 }),
        },
      ],
      expect: counted(CHAIN_LENGTH),
      // Many short rounds: the median of per-round ratios shrugs off a busy spell of the machine.
      rounds: 15,
      sliceMs: 150,
    },
    {
      flow: `loop of ${LOOP_PASSES}`,
      description: `${LOOP_PASSES} passes of count ← count + 1 then a PT1H timer, the timer fired by the driver each pass`,
      contenders: [
        {
          name: 'wakeflow',
          run: async () => (await runWithTimers(loop, { count: 0 })).context,
        },
        { name: 'xstate', run: () => xstate.runLoopWithEvents(loopEventsMachine) },
        { name: 'xstate (after + clock)', run: () => xstate.runLoopWithClock(loopMachine) },
        { name: 'bpmn-engine', run: () => bpmn.runLoop(loopBpmn) },
      ],
      expect: counted(LOOP_PASSES),
      // bpmn-engine takes seconds per run here: fewer rounds keep the whole run short.
      rounds: 5,
      sliceMs: 300,
    },
  ];

  const out: EngineCase[] = [];
  for (const c of cases) {
    // Every contender must have done the same work before any of them is timed.
    for (const k of c.contenders) c.expect(k.name, await k.run());
    log(`engine: ${c.flow} …`);
    const result = await sideBySide(c.contenders, { rounds: c.rounds, sliceMs: c.sliceMs });
    const ratios: Record<string, number> = {};
    for (const k of c.contenders) {
      if (k.name === 'wakeflow') continue;
      ratios[k.name] = ratio(result.perRound.wakeflow!, result.perRound[k.name]!);
    }
    out.push({ flow: c.flow, description: c.description, opsPerSec: result.opsPerSec, ratios });
  }
  return out;
}

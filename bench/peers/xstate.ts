import {
  assign,
  createActor,
  setup,
  SimulatedClock,
  type AnyActorRef,
  type AnyStateMachine,
} from 'xstate';
import { CHAIN_LENGTH, FANOUT_BRANCHES, LOOP_PASSES } from '../flows.ts';

/**
 * The benchmark flows as XState v5 machines. Each machine is created once; a run creates an
 * actor, starts it and drives it until its status is `done`, all in memory and synchronously,
 * which is XState's fastest honest setup. A work node's assignment is an `assign` action on an
 * eventless (`always`) transition; the join is a parallel state's `onDone`.
 */

type Ctx = Record<string, number | boolean>;

/** start → a parallel state of 10 regions (each assigns its flag, then is final) → end. */
export function fanoutMachine(branches = FANOUT_BRANCHES): AnyStateMachine {
  const regions: Record<string, object> = {};
  for (let i = 0; i < branches; i++) {
    const key = `b${i}`;
    regions[key] = {
      initial: 'work',
      states: {
        work: { always: { target: 'done', actions: assign({ [key]: true }) } },
        done: { type: 'final' },
      },
    };
  }
  return setup({ types: { context: {} as Ctx } }).createMachine({
    id: 'fanout',
    context: {},
    initial: 'split',
    states: {
      split: { type: 'parallel', states: regions, onDone: 'end' },
      end: { type: 'final' },
    },
  });
}

/** 100 states in a row, each `count + 1` on its way to the next, then a final state. */
export function chainMachine(length = CHAIN_LENGTH): AnyStateMachine {
  const states: Record<string, object> = {};
  for (let i = 0; i < length; i++) {
    states[`w${i}`] = {
      always: { target: i + 1 < length ? `w${i + 1}` : 'end', actions: 'increment' },
    };
  }
  states.end = { type: 'final' };
  return setup({
    types: { context: {} as { count: number } },
    actions: { increment: assign({ count: ({ context }) => context.count + 1 }) },
  }).createMachine({ id: 'chain', context: { count: 0 }, initial: 'w0', states });
}

/**
 * tick (`count + 1`) → sleep → back to tick while `count < 1000`, else end. The closest
 * equivalent of wakeflow's PT1H timer is XState's own delayed transition (`after`) on a
 * `SimulatedClock` that the driver moves forward one hour per pass, as wakeflow's driver fires
 * the timer each pass. (Sending an event per pass instead is measured too: `loopEventsMachine`;
 * the faster of the two is the one reported.)
 */
export function loopMachine(passes = LOOP_PASSES): AnyStateMachine {
  return setup({
    types: { context: {} as { count: number } },
    actions: { increment: assign({ count: ({ context }) => context.count + 1 }) },
    guards: { again: ({ context }) => context.count < passes },
  }).createMachine({
    id: 'loop',
    context: { count: 0 },
    initial: 'tick',
    states: {
      tick: { always: { target: 'sleep', actions: 'increment' } },
      sleep: { after: { [HOUR]: [{ guard: 'again', target: 'tick' }, { target: 'end' }] } },
      end: { type: 'final' },
    },
  });
}

/** The same loop, woken by an event per pass (`TIMER`) rather than by a delayed transition. */
export function loopEventsMachine(passes = LOOP_PASSES): AnyStateMachine {
  return setup({
    types: { context: {} as { count: number }, events: {} as { type: 'TIMER' } },
    actions: { increment: assign({ count: ({ context }) => context.count + 1 }) },
    guards: { again: ({ context }) => context.count < passes },
  }).createMachine({
    id: 'loopEvents',
    context: { count: 0 },
    initial: 'tick',
    states: {
      tick: { always: { target: 'sleep', actions: 'increment' } },
      sleep: { on: { TIMER: [{ guard: 'again', target: 'tick' }, { target: 'end' }] } },
      end: { type: 'final' },
    },
  });
}

const HOUR = 3_600_000;

function finish(actor: AnyActorRef): unknown {
  const snapshot = actor.getSnapshot();
  if (snapshot.status !== 'done') throw new Error(`xstate: ${snapshot.status}, not done`);
  return snapshot.context;
}

/** Runs a machine that needs no outside input: start, and it is done. */
export function runMachine(machine: AnyStateMachine): unknown {
  const actor = createActor(machine).start();
  return finish(actor);
}

/** Runs the loop with a simulated clock, moving it one hour each time the machine sleeps. */
export function runLoopWithClock(machine: AnyStateMachine): unknown {
  const clock = new SimulatedClock();
  const actor = createActor(machine, { clock }).start();
  while (actor.getSnapshot().status === 'active') clock.increment(HOUR);
  return finish(actor);
}

/** Runs the loop by sending one event per pass. */
export function runLoopWithEvents(machine: AnyStateMachine): unknown {
  const actor = createActor(machine).start();
  while (actor.getSnapshot().status === 'active') actor.send({ type: 'TIMER' });
  return finish(actor);
}

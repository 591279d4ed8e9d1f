/**
 * The 8-node flow (the one e2e/buildLoop.spec.ts draws): a loop with a fan-out and a
 * join inside it, closed by a continue-after with two triggers, a timer back round the loop and
 * an event out of it. start → work1 → split1 → (work2, work3) → join1 → wait1 →(timer) work1,
 * wait1 →(event1) end. One timer wake runs the loop once: every node but end is visited again.
 * The timer is a day, so that a countdown's text (`in 23 h 59 min`) changes once a minute: an
 * idle second that renders a countdown renders for nothing.
 */
export const LOOP_FLOW = {
  format: 'flow/1',
  id: 'loop-join',
  name: 'Loop with a join',
  nodes: [
    { id: 'start', kind: 'start', position: { x: 0, y: 80 } },
    {
      id: 'work1',
      kind: 'work',
      set: { passes: '($exists(passes) ? passes : 0) + 1' },
      position: { x: 200, y: 80 },
    },
    { id: 'split1', kind: 'fanout', position: { x: 400, y: 80 } },
    { id: 'work2', kind: 'work', set: { a: 'passes' }, position: { x: 600, y: 0 } },
    { id: 'work3', kind: 'work', set: { b: 'passes' }, position: { x: 600, y: 160 } },
    { id: 'join1', kind: 'join', depends: ['work2', 'work3'], position: { x: 800, y: 80 } },
    {
      id: 'wait1',
      kind: 'continue-after',
      on: [
        { id: 'timer', timer: 'P1D' },
        { id: 'event1', event: 'event1' },
      ],
      position: { x: 1000, y: 80 },
    },
    { id: 'end', kind: 'end', position: { x: 1200, y: 80 } },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'work1' },
    { id: 'e2', from: 'work1', to: 'split1' },
    { id: 'e3', from: 'split1', to: 'work2' },
    { id: 'e4', from: 'split1', to: 'work3' },
    { id: 'e5', from: 'work2', to: 'join1' },
    { id: 'e6', from: 'work3', to: 'join1' },
    { id: 'e7', from: 'join1', to: 'wait1' },
    { id: 'e8', from: 'wait1', to: 'work1', trigger: 'timer' },
    { id: 'e9', from: 'wait1', to: 'end', trigger: 'event1' },
  ],
} as const;

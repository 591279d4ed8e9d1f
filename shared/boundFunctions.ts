/**
 * The JSONata functions whose result would otherwise depend on when or where an expression runs.
 * The runtime binds each to the step's own inputs (docs/format.md#expressions-are-deterministic;
 * runtime/expr/stepBindings.ts), and `flow validate` notes every expression that calls one.
 */
export const BOUND_FUNCTIONS: Readonly<Record<string, string>> = {
  now: "gives the time of the step (the supervisor's clock, virtual or real), not the wall clock",
  millis: 'gives the time of the step in milliseconds, not the wall clock',
  random: "draws from the process's own seeded sequence, carried in its snapshot",
  shuffle: "shuffles with the process's own seeded sequence, carried in its snapshot",
};

/** Steps one run may take before the supervisor stops the process (see `ProcessRunner.drive`). */
export const MAX_STEPS_PER_RUN = 100_000;

/**
 * Steps one commit holds at most. A wake or a drive runs to its next stop in memory and commits
 * once (docs/persistence.md); a run longer than this commits every so many steps, so that what
 * it holds in memory, and the time between two turns of the event loop, stay bounded. A
 * supervisor may be given another bound (`maxStepsPerCommit`): `flow simulate` gives none.
 */
export const MAX_STEPS_PER_COMMIT = 1000;

/** How often a step is run again when another writer moved the context on meanwhile. */
export const MAX_CONFLICT_RETRIES = 50;

/**
 * Steps a batch of wakes runs in memory before it commits: the bound of one commit
 * (MAX_STEPS_PER_COMMIT), for the same reasons (what is held in memory, the time between two
 * turns of the event loop).
 */
export const MAX_STEPS_PER_BATCH = MAX_STEPS_PER_COMMIT;

/** Processes one batch holds at most (their locks, their runs in memory). */
export const MAX_PROCESSES_PER_BATCH = 250;

/**
 * How long a batch runs in memory at most before it takes a turn of the event loop, when the
 * supervisor was given no `betweenSteps` of its own: an advance's batch (ADVANCE_BATCH_FACTOR
 * × MAX_STEPS_PER_BATCH steps) took 100–140 ms on a page, one task that kept it from drawing.
 */
export const BATCH_SLICE_MS = 16;

/**
 * Real time a run holds the app's runtime worker at most before it lets queued messages in (its
 * supervisor's `betweenSteps`, timeSlices.ts).
 */
export const RUN_SLICE_MS = 16;

/**
 * How many times longer an advance's batch may run when the retention rule is applied to it in
 * memory (`keepPasses`): its journal then holds at most twice the passes kept per process.
 */
export const ADVANCE_BATCH_FACTOR = 10;

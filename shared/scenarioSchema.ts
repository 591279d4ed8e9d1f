import { z } from 'zod';
import { parseDuration } from './duration.ts';
import { flowSchema } from './schema.ts';

/**
 * The highest bound on live branches a scenario may set (`maxLiveBranches`): twenty times the
 * default (the engine's MAX_LIVE_BRANCHES, 500). Every step stores the snapshot, whose size
 * follows what is live, so a bound much higher would let a flow that multiplies its branches run
 * for minutes before it fails.
 */
export const MAX_SCENARIO_LIVE_BRANCHES = 10_000;

/**
 * A `scenario/1` file (docs/format.md#scenarios) as zod schemas: flows, a start time and steps that drive the
 * supervisor on a virtual clock. `runtime/report/scenario.ts` reads files with them; `schema/` is
 * generated from them.
 */
const name = z.string().min(1, 'must not be empty');
const json = z.unknown();
const processName = name.meta({ description: 'A process, by the name its "start" step gave it.' });

export const stepSchemas = {
  start: z
    .strictObject({
      start: name.meta({ description: 'The id of the flow to start.' }),
      as: name.meta({ description: 'The name later steps use for the process.' }),
      context: json.optional().meta({ description: 'The first context of the process.' }),
      shareContextWith: processName
        .optional()
        .meta({ description: 'Binds the new process to the live context of an earlier one.' }),
    })
    .meta({ id: 'StartStep', description: 'Starts a process of a flow.' }),
  advance: z
    .strictObject({
      advance: z
        .string()
        .refine(
          (s) => parseDuration(s) !== undefined,
          'must be an ISO-8601 duration such as PT24H',
        ),
    })
    .meta({
      id: 'AdvanceStep',
      description:
        'Moves the virtual clock forward by an ISO-8601 duration, to each due time in turn, waking timers in order of due time.',
    }),
  event: z
    .strictObject({ event: name, payload: json.optional(), to: processName.optional() })
    .meta({
      id: 'EventStep',
      description:
        'Sends an event to every process waiting for that name at that moment (or only to "to"); an event nobody waits for is dropped.',
    }),
  human: z
    .strictObject({
      human: processName,
      node: name.meta({
        description: 'The waiting continue-after node, by its path (sub/approve).',
      }),
      input: json,
      trigger: name
        .optional()
        .meta({ description: 'Which human trigger, where the node has several.' }),
    })
    .meta({
      id: 'HumanStep',
      description: 'Completes the human trigger of a continue-after node.',
    }),
  setContext: z.strictObject({ setContext: processName, path: name, value: json }).meta({
    id: 'SetContextStep',
    description: "Writes a value at a path of a process's context.",
  }),
  replaceFlow: z.strictObject({ replaceFlow: flowSchema }).meta({
    id: 'ReplaceFlowStep',
    description: 'Replaces a flow of the workspace by a new version.',
  }),
  resolve: z
    .strictObject({
      resolve: processName,
      choice: z.enum(['continue', 'keep', 'restart', 'cancel']),
    })
    .meta({ id: 'ResolveStep', description: 'Chooses what a flow-changed process does.' }),
  stop: z.strictObject({ stop: processName }).meta({ id: 'StopStep' }),
  resume: z.strictObject({ resume: processName }).meta({ id: 'ResumeStep' }),
  retry: z.strictObject({ retry: processName }).meta({ id: 'RetryStep' }),
};

const scenarioFields = {
  format: z.literal('scenario/1'),
  flows: z.array(flowSchema),
  clock: z
    .string()
    .refine(
      (s) => !Number.isNaN(Date.parse(s)),
      'must be a date and time such as 2026-01-01T00:00:00Z',
    )
    .meta({ description: 'When the virtual clock starts, such as 2026-01-01T00:00:00Z.' }),
  maxLiveBranches: z
    .number()
    // Not `.int()`: its issue reads "expected a int" through schemaErrors.
    .refine(Number.isInteger, 'must be a whole number')
    .min(1, 'must be at least 1')
    .max(
      MAX_SCENARIO_LIVE_BRANCHES,
      `must be at most ${MAX_SCENARIO_LIVE_BRANCHES.toLocaleString('en')}`,
    )
    .optional()
    .meta({
      // The refinement above, as JSON Schema states it (zod writes "number" for a refined one).
      type: 'integer',
      description:
        'Live branches a process may have at once (nodes ready, waits and running sub-flows); a step that leaves more fails its node. 500 when absent.',
    }),
};

const scenarioMeta = {
  title: 'wakeflow scenario/1',
  description:
    'A script that drives the real runtime and supervisor on a virtual clock, with no browser; after every step, every process that can run runs until it stops.',
};

/** The envelope; each step is read on its own so that its errors name it (`steps[3]`). */
export const scenarioEnvelopeSchema = z.looseObject({
  ...scenarioFields,
  steps: z.array(z.unknown()),
});

/** The whole file, steps included: what schema/scenario-1.schema.json states. */
export const scenarioSchema = z
  .looseObject({
    ...scenarioFields,
    steps: z.array(z.union(Object.values(stepSchemas))),
  })
  .meta(scenarioMeta);

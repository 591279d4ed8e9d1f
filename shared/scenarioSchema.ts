import { z } from './zod.ts';
import { pinsSchema } from './pins.ts';
import { parseDuration } from './duration.ts';
import { flowSchema } from './schema.ts';

/**
 * The highest bound on live branches a scenario may set (`maxLiveBranches`): ten times the
 * default (the engine's MAX_LIVE_BRANCHES, 10,000). Reaching a bound costs more than the steps
 * that reach it (each counts what is live), so a bound much higher would let a flow that
 * multiplies its branches run for minutes before it fails.
 */
export const MAX_SCENARIO_LIVE_BRANCHES = 100_000;

/**
 * A `scenario/1` file (docs/format.md#scenarios) as zod schemas: flows, a start time and steps that drive the
 * supervisor on a virtual clock. `runtime/report/scenario.ts` reads files with them; `schema/` is
 * generated from them.
 */
const name = z.string().min(1, 'must not be empty');
const json = z.unknown();
const processName = name.meta({ description: 'A process, by the name its "start" step gave it.' });

const status = z
  .number()
  // Not `.int()`: its issue reads "expected a int" through schemaErrors.
  .refine(Number.isInteger, 'must be a whole number')
  .min(100, 'must be a status from 100 to 599')
  .max(599, 'must be a status from 100 to 599')
  .meta({ type: 'integer', description: 'The status of the answer.' });
const answerFields = {
  status,
  body: json.optional().meta({ description: 'The body of the answer, sent as JSON.' }),
  headers: z
    .record(z.string(), z.string())
    .optional()
    .meta({ description: 'The headers of the answer.' }),
};
const failure = z.enum(['network', 'timeout']).meta({
  description: 'The attempt fails without an answer: a network error, or no answer in time.',
});
const callName = name.meta({
  description: 'The call, by the id of its trigger or the path of its node (pay, sub/pay).',
});
const duration = z
  .string()
  .refine((s) => parseDuration(s) !== undefined, 'must be an ISO-8601 duration such as PT2S');

/** One answer of `responses` (docs/format.md#scenarios): an answer, or a failure without one. */
export const scenarioResponseSchema = z
  .union([
    z.strictObject({
      call: callName,
      ...answerFields,
      after: duration
        .optional()
        .meta({ description: 'How long, on the virtual clock, the answer takes.' }),
    }),
    z.strictObject({ call: callName, error: failure }),
  ])
  .meta({
    id: 'Response',
    description:
      'Answers the attempts of a call, in the order listed; the last one answers every attempt after it.',
  });

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
  respond: z
    .strictObject({
      respond: processName,
      node: name.meta({ description: 'The waiting call, by the path of its node (sub/pay).' }),
      status: status.optional(),
      body: answerFields.body,
      headers: answerFields.headers,
      error: failure.optional(),
    })
    .superRefine((step, ctx) => {
      if ((step.status === undefined) === (step.error === undefined))
        ctx.addIssue({
          code: 'custom',
          message: 'a respond step has either a "status" or an "error", not both nor neither',
        });
      else if (step.error !== undefined && (step.body !== undefined || step.headers !== undefined))
        ctx.addIssue({
          code: 'custom',
          message: 'a failure without an answer has no "body" or "headers"',
        });
    })
    .meta({
      id: 'RespondStep',
      description:
        "Answers the current attempt of a process's waiting call, with a status or a failure.",
      // The refinement above, as schema/ states it.
      oneOf: [{ required: ['status'] }, { required: ['error'] }],
    }),
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
  responses: z.array(scenarioResponseSchema).optional().meta({
    description:
      'How the calls of the scenario are answered, since they never reach the network; a call with none listed waits for a "respond" step.',
  }),
  pins: pinsSchema.optional().meta({
    description:
      'Pinned answers, as a flows/1 export holds them: a call that "responses" does not answer is answered by its pin.',
  }),
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
        'Live branches a process may have at once (nodes ready, waits and running sub-flows); a step that leaves more fails its node. 10,000 when absent.',
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

import { z } from './zod.ts';
import { pinsSchema } from './pins.ts';

/**
 * The `flow/1` and `flows/1` formats of docs/format.md as zod schemas. Objects are loose: unknown
 * fields are kept on import and export, never dropped. The schemas check the shape of a file
 * only; whether a well-formed flow can run is `validateFlow`'s question, so that a flow with
 * problems can still be imported and edited (docs/format.md#errors).
 */

/** Keys that would reach an object's prototype if copied naively; refused as ids and paths. */
export const RESERVED_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

export const NODE_KINDS = [
  'start',
  'work',
  'fanout',
  'join',
  'continue-after',
  'subflow',
  'end',
] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

// An id names a node, edge, trigger or flow. '/' is kept out because nested nodes are named by
// their path through sub-flow nodes (`sub/approve`).
const id = z
  .string()
  .min(1, 'must not be empty')
  .refine((s) => !s.includes('/'), 'must not contain "/" (it separates sub-flow paths)')
  .refine(
    (s) => !RESERVED_KEYS.includes(s),
    'must not be "__proto__", "constructor" or "prototype"',
  )
  // The refinements above, as schema/ states them (JSON Schema cannot run a refinement).
  .meta({
    id: 'Id',
    description:
      'Names a node, edge, trigger or flow: not empty, no "/" (it separates sub-flow paths), not "__proto__", "constructor" or "prototype".',
    pattern: '^[^/]+$',
    not: { enum: [...RESERVED_KEYS] },
  });

const position = z
  .looseObject({ x: z.number(), y: z.number() })
  .meta({ id: 'Position', description: 'Where the node is drawn; does not change what runs.' });

const nodeBase = {
  id,
  label: z.string().optional().meta({ description: 'What the node is called on the canvas.' }),
  position: position.optional(),
  depends: z.array(z.string()).optional().meta({
    description:
      'Ids of nodes in the same flow: with it the node is a barrier, a join, that runs at most once per generation once every node named is settled.',
  }),
};

const humanField = z
  .looseObject({
    name: z.string().min(1, 'must not be empty'),
    type: z.enum(['boolean', 'number', 'string']),
    label: z.string().optional(),
  })
  .meta({ id: 'HumanField', description: 'One field of the form a person fills in.' });

/** The methods a call may use (docs/format.md#calls); GET when absent. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A failure a retry may be listed for besides a status: no answer at all, or none in time. */
export const CALL_FAILURES = ['network', 'timeout'] as const;

const wholeNumber = (what: string) =>
  z
    .number()
    // Not `.int()`: its issue reads "expected a int" through schemaErrors.
    .refine(Number.isInteger, 'must be a whole number')
    .meta({ type: 'integer', description: what });

const callRetry = z
  .looseObject({
    max: wholeNumber('How many more attempts at most after the first (3 when absent).')
      .min(0, 'must be at least 0')
      .optional(),
    interval: z.string().optional().meta({
      description: 'An ISO-8601 duration: the wait before the first retry (PT1S when absent).',
    }),
    backoff: z.number().min(1, 'must be at least 1').optional().meta({
      description: 'What the wait is multiplied by at each retry (2 when absent).',
    }),
    maxInterval: z.string().optional().meta({
      description:
        'An ISO-8601 duration: the longest wait between two attempts (PT1H when absent).',
    }),
    on: z
      .array(
        z.union([
          wholeNumber('A status of the answer.')
            .min(100, 'must be a status from 100 to 599')
            .max(599, 'must be a status from 100 to 599'),
          z.enum(CALL_FAILURES),
        ]),
      )
      .optional()
      .meta({
        description:
          'The failures tried again: statuses, "network" and "timeout" (429, 5xx, network and timeout when absent).',
      }),
  })
  .meta({
    id: 'CallRetry',
    description: 'How a failed attempt is tried again; without it, a call is attempted once.',
  });

const call = z
  .looseObject({
    method: z.enum(HTTP_METHODS).optional().meta({ description: 'GET when absent.' }),
    url: z.string().meta({
      description:
        'A JSONata expression giving the http(s) URL, evaluated against the live context when the process reaches the node.',
    }),
    headers: z.record(z.string(), z.string()).optional().meta({
      description: 'From header name to a JSONata expression giving its value, a string.',
    }),
    body: z.string().optional().meta({
      description: 'A JSONata expression whose value is sent as JSON.',
    }),
    timeout: z.string().optional().meta({
      description:
        'An ISO-8601 duration: how long an attempt waits for an answer (PT30S when absent).',
    }),
    retry: callRetry.optional(),
  })
  .meta({
    id: 'Call',
    description:
      'An HTTP request made when the process reaches the node; the trigger fires once, with the outcome, whether it succeeded or not.',
  });

const TRIGGER_KINDS = ['timer', 'event', 'human', 'call'] as const;

const trigger = z
  .looseObject({
    id,
    timer: z.string().optional().meta({
      description: 'An ISO-8601 duration such as PT24H: fires that long after the wait began.',
    }),
    event: z
      .string()
      .min(1, 'must not be empty')
      .optional()
      .meta({ description: 'Fires when an event of this name is sent.' }),
    human: z
      .looseObject({ prompt: z.string().optional(), fields: z.array(humanField) })
      .optional()
      .meta({ description: "Fires when a person answers the prompt's form." }),
    call: call
      .optional()
      .meta({ description: 'Fires with the outcome of an HTTP request (docs/format.md#calls).' }),
    into: z.string().optional().meta({
      description:
        "The context path where an event's payload, a person's input or a call's outcome is written.",
    }),
  })
  .superRefine((t, ctx) => {
    const kinds = TRIGGER_KINDS.filter((k) => t[k] !== undefined);
    if (kinds.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          kinds.length === 0
            ? 'a trigger needs one of "timer", "event", "human" or "call"'
            : `a trigger has exactly one of "timer", "event", "human" or "call", not ${kinds.join(' and ')}`,
      });
    } else if (t.timer !== undefined && t.into !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['into'],
        message: 'a timer has no payload to put "into"',
      });
    }
  })
  .meta({
    id: 'Trigger',
    description:
      'What wakes a continue-after: exactly one of "timer", "event", "human" or "call". The first trigger to fire wins and the others are dropped.',
    // The refinement above, as schema/ states it.
    oneOf: TRIGGER_KINDS.map((k) => ({ required: [k] })),
    if: { required: ['timer'] },
    then: { not: { required: ['into'] } },
  });

const startNode = z
  .looseObject({ ...nodeBase, kind: z.literal('start') })
  .meta({ id: 'StartNode', description: 'Where a process begins; exactly one per flow.' });
const workNode = z
  .looseObject({
    ...nodeBase,
    kind: z.literal('work'),
    set: z.record(z.string(), z.string()).optional().meta({
      description:
        'From context path (dots, e.g. order.total) to a JSONata expression. The expressions run in the order written, each seeing the writes before it; the writes reach the live context together when the node completes.',
    }),
  })
  .meta({ id: 'WorkNode', description: 'Runs its "set" expressions.' });
const fanoutNode = z.looseObject({ ...nodeBase, kind: z.literal('fanout') }).meta({
  id: 'FanoutNode',
  description:
    'No action; drawn where a designer wants the split to be visible. Any node with several outgoing edges fans out.',
});
const joinNode = z
  .looseObject({ ...nodeBase, kind: z.literal('join') })
  .meta({ id: 'JoinNode', description: 'No action; must have a non-empty "depends".' });
const continueAfterNode = z
  .looseObject({
    ...nodeBase,
    kind: z.literal('continue-after'),
    on: z.array(trigger),
  })
  .meta({
    id: 'ContinueAfterNode',
    description:
      'The process stops here and sleeps until one trigger of "on" fires; the first to fire wins.',
  });
const subflowNode = z
  .looseObject({
    ...nodeBase,
    kind: z.literal('subflow'),
    flow: z.string().meta({ description: 'The id of another flow.' }),
  })
  .meta({
    id: 'SubflowNode',
    description:
      'Runs another flow as a child process nested inside this one, on the same live context; completes when the child completes.',
  });
const endNode = z
  .looseObject({
    ...nodeBase,
    kind: z.literal('end'),
    terminate: z.boolean().optional().meta({
      description: 'Ends the whole process (or sub-flow), dropping every other branch and wait.',
    }),
  })
  .meta({ id: 'EndNode', description: 'Ends this branch.' });

export const flowNodeSchema = z.discriminatedUnion('kind', [
  startNode,
  workNode,
  fanoutNode,
  joinNode,
  continueAfterNode,
  subflowNode,
  endNode,
]);

export const flowEdgeSchema = z
  .looseObject({
    id,
    from: z.string().meta({ description: 'The id of the node the edge leaves.' }),
    to: z.string().meta({ description: 'The id of the node the edge leads to.' }),
    when: z.string().optional().meta({
      description:
        "A JSONata condition, read by $boolean rules against the live context after the source node's writes; the edge is taken when it is absent or true.",
    }),
    trigger: z.string().optional().meta({
      description: 'Taken only when this trigger of its continue-after source fired.',
    }),
  })
  .meta({ id: 'Edge' });

export const flowSchema = z
  .looseObject({
    format: z.literal('flow/1'),
    id,
    name: z.string().optional(),
    nodes: z.array(flowNodeSchema),
    edges: z.array(flowEdgeSchema),
  })
  .meta({
    title: 'wakeflow flow/1',
    description:
      'A durable flow: nodes and the edges between them. Unknown top-level or node fields are kept on import and export, never dropped.',
  });

export const flowsSchema = z
  .looseObject({
    format: z.literal('flows/1'),
    flows: z.array(flowSchema),
    pins: pinsSchema.optional(),
  })
  .meta({
    title: 'wakeflow flows/1',
    description:
      'A workspace export: a flow together with the flows it calls, or a whole workspace.',
  });

export type Flow = z.infer<typeof flowSchema>;
export type FlowNode = z.infer<typeof flowNodeSchema>;
export type FlowEdge = z.infer<typeof flowEdgeSchema>;
export type Trigger = z.infer<typeof trigger>;
export type HumanField = z.infer<typeof humanField>;
export type Call = z.infer<typeof call>;
export type CallRetry = z.infer<typeof callRetry>;
export type NodeOf<K extends NodeKind> = Extract<FlowNode, { kind: K }>;
export type FlowsFile = z.infer<typeof flowsSchema>;

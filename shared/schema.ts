import { z } from 'zod';

// No code generation: zod's faster path compiles validators with `new Function`, which the app's
// Content-Security-Policy forbids (and merely probing for it is reported as a violation).
z.config({ jitless: true });

/**
 * The `flow/1` and `flows/1` formats of FORMAT.md as zod schemas. Objects are loose: unknown
 * fields are kept on import and export, never dropped. The schemas check the shape of a file
 * only; whether a well-formed flow can run is `validateFlow`'s question, so that a flow with
 * problems can still be imported and edited (FORMAT.md §4).
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
  );

const position = z.looseObject({ x: z.number(), y: z.number() });

const nodeBase = {
  id,
  label: z.string().optional(),
  position: position.optional(),
  depends: z.array(z.string()).optional(),
};

const humanField = z.looseObject({
  name: z.string().min(1, 'must not be empty'),
  type: z.enum(['boolean', 'number', 'string']),
  label: z.string().optional(),
});

const trigger = z
  .looseObject({
    id,
    timer: z.string().optional(),
    event: z.string().min(1, 'must not be empty').optional(),
    human: z.looseObject({ prompt: z.string().optional(), fields: z.array(humanField) }).optional(),
    into: z.string().optional(),
  })
  .superRefine((t, ctx) => {
    const kinds = (['timer', 'event', 'human'] as const).filter((k) => t[k] !== undefined);
    if (kinds.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          kinds.length === 0
            ? 'a trigger needs one of "timer", "event" or "human"'
            : `a trigger has exactly one of "timer", "event" or "human", not ${kinds.join(' and ')}`,
      });
    } else if (t.timer !== undefined && t.into !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['into'],
        message: 'a timer has no payload to put "into"',
      });
    }
  });

const startNode = z.looseObject({ ...nodeBase, kind: z.literal('start') });
const workNode = z.looseObject({
  ...nodeBase,
  kind: z.literal('work'),
  set: z.record(z.string(), z.string()).optional(),
});
const fanoutNode = z.looseObject({ ...nodeBase, kind: z.literal('fanout') });
const joinNode = z.looseObject({ ...nodeBase, kind: z.literal('join') });
const continueAfterNode = z.looseObject({
  ...nodeBase,
  kind: z.literal('continue-after'),
  on: z.array(trigger),
});
const subflowNode = z.looseObject({ ...nodeBase, kind: z.literal('subflow'), flow: z.string() });
const endNode = z.looseObject({
  ...nodeBase,
  kind: z.literal('end'),
  terminate: z.boolean().optional(),
});

export const flowNodeSchema = z.discriminatedUnion('kind', [
  startNode,
  workNode,
  fanoutNode,
  joinNode,
  continueAfterNode,
  subflowNode,
  endNode,
]);

export const flowEdgeSchema = z.looseObject({
  id,
  from: z.string(),
  to: z.string(),
  when: z.string().optional(),
  trigger: z.string().optional(),
});

export const flowSchema = z.looseObject({
  format: z.literal('flow/1'),
  id,
  name: z.string().optional(),
  nodes: z.array(flowNodeSchema),
  edges: z.array(flowEdgeSchema),
});

export const flowsSchema = z.looseObject({
  format: z.literal('flows/1'),
  flows: z.array(flowSchema),
});

export type Flow = z.infer<typeof flowSchema>;
export type FlowNode = z.infer<typeof flowNodeSchema>;
export type FlowEdge = z.infer<typeof flowEdgeSchema>;
export type Trigger = z.infer<typeof trigger>;
export type HumanField = z.infer<typeof humanField>;
export type NodeOf<K extends NodeKind> = Extract<FlowNode, { kind: K }>;
export type FlowsFile = z.infer<typeof flowsSchema>;

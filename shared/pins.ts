import { z } from './zod.ts';

/**
 * A pinned answer of a call (docs/format.md#pinned-answers): a recorded answer that answers the
 * call in place of the network, as n8n pins data. Keyed by the flow that holds the node, the
 * node's id and the call trigger's id (docs/decisions.md, "A pin is keyed by flow, node and
 * trigger"): kept in the workspace, never in the flow, so it does not count in the signature.
 */
export interface Pin {
  flow: string;
  node: string;
  trigger: string;
  /** The answer's status, 100 to 599. */
  status: number;
  /** The answer's headers that a pin keeps (PINNED_HEADERS), names in lower case. */
  headers: Record<string, string>;
  /** The answer's body as the outcome has it: parsed JSON, or text; null when there was none. */
  body: unknown;
}

/**
 * The headers a pin keeps of an answer: what says how to read its body or when to try again,
 * never one that may carry a credential or a session (`set-cookie`, `authorization`…).
 */
export const PINNED_HEADERS: readonly string[] = ['content-type', 'retry-after', 'location'];

/** The largest pin, as JSON text: a pinned answer is written into a context whole. */
export const MAX_PIN_CHARS = 256 * 1024;
/** Pins a workspace (or a file) holds at most. */
export const MAX_PINS = 1000;

// Ids as shared/schema.ts checks them, kept short: a pin names what it is for, nothing more.
const pinId = z
  .string()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .refine((s) => !s.includes('/'), 'must not contain "/"')
  .refine(
    (s) => !['__proto__', 'constructor', 'prototype'].includes(s),
    'must not be "__proto__", "constructor" or "prototype"',
  )
  .meta({ pattern: '^[^/]+$' });

// Unknown fields are not an error (a later version's), but a pin keeps only these.
export const pinSchema = z
  .object({
    flow: pinId.meta({ description: 'The id of the flow that holds the node.' }),
    node: pinId.meta({ description: "The continue-after node's id in that flow." }),
    trigger: pinId.meta({ description: "The call trigger's id." }),
    status: z.int().min(100).max(599).meta({ description: "The answer's status." }),
    headers: z
      .record(z.string(), z.string().max(2000))
      .optional()
      .meta({ description: `The answer's headers a pin keeps: ${PINNED_HEADERS.join(', ')}.` }),
    body: z
      .unknown()
      .optional()
      .meta({ description: "The answer's body: parsed JSON, or text. null when absent." }),
  })
  .refine((p) => JSON.stringify(p).length <= MAX_PIN_CHARS, {
    message: `a pin may be at most ${MAX_PIN_CHARS / 1024} KB as JSON`,
  })
  .meta({
    id: 'Pin',
    description:
      'A recorded answer that answers a call in place of sending it (docs/format.md#pinned-answers).',
  });

export const pinsSchema = z.array(pinSchema).max(MAX_PINS, `at most ${MAX_PINS} pins`).meta({
  description:
    'Pinned answers of calls: kept in the workspace, not in a flow, and restored on import.',
});

/** A pin's key: one pin per call trigger of a node of a flow. */
export const pinKey = (pin: { flow: string; node: string; trigger: string }): string =>
  JSON.stringify([pin.flow, pin.node, pin.trigger]);

/** A pin as stored and exported: its headers cut to PINNED_HEADERS, its body null when absent. */
export function normalPin(pin: z.infer<typeof pinSchema>): Pin {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(pin.headers ?? {})) {
    const lower = name.toLowerCase();
    if (PINNED_HEADERS.includes(lower)) headers[lower] = value;
  }
  return {
    flow: pin.flow,
    node: pin.node,
    trigger: pin.trigger,
    status: pin.status,
    headers,
    body: pin.body === undefined ? null : pin.body,
  };
}

/**
 * Checks one pin given from outside (the page, a file): the pin as kept, or what is wrong with it.
 */
export function checkPin(value: unknown): { ok: true; pin: Pin } | { ok: false; error: string } {
  const parsed = pinSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { ok: false, error: `${where}${issue.message}` };
  }
  return { ok: true, pin: normalPin(parsed.data) };
}

/**
 * What a pin keeps of a call's outcome (the test request's, already scrubbed of every secret
 * value it sent: runtime/calls/secrets.ts): status, the headers a pin keeps, body. Undefined for
 * an outcome with no answer (a refusal, a network error, a timeout) or one too large to pin.
 */
export function pinnableAnswer(outcome: {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}): Pick<Pin, 'status' | 'headers' | 'body'> | undefined {
  if (outcome.status < 100 || outcome.status > 599) return undefined;
  const headers: Record<string, string> = {};
  for (const name of PINNED_HEADERS) {
    const value = outcome.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  const answer = { status: outcome.status, headers, body: outcome.body ?? null };
  // Room left for the key: a pin of this answer must pass the same limit as an imported one.
  return JSON.stringify(answer).length <= MAX_PIN_CHARS - 1024 ? answer : undefined;
}

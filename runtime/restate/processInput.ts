import { z } from '../../shared/zod.ts';
import { schemaErrors } from '../../shared/parseFlowFile.ts';
import { PROCESS_STATUSES } from '../supervisor/records.ts';
import { PROCESS_ORDERS } from '../supervisor/store.ts';

/**
 * The shapes of what a caller sends a process, checked before anything runs: input comes from
 * the ingress (curl, any client), so it is untrusted, and a refusal says where and what.
 */
const name = z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

export const startInput = z.strictObject({
  flow: name,
  context: z.unknown().optional(),
  shareContextWith: name.optional(),
});

export const humanInput = z.strictObject({
  node: name,
  input: z.unknown(),
  trigger: name.optional(),
});

export const resolveInput = z.strictObject({
  choice: z.enum(['continue', 'keep', 'restart', 'cancel']),
});

export const setContextInput = z.strictObject({ path: z.string(), value: z.unknown() });

/** The whole context, replaced at once (the workbench's context editor). */
export const replaceContextInput = z.strictObject({ value: z.unknown() });

/**
 * `reading`: how many of the journal's newest entries to send. The inspector's "Show older
 * entries" asks a page more each time, so the bound is one a journal reaches only by a loop of
 * years; past it, the JSON Lines export has all of it.
 */
export const MAX_JOURNAL_READ = 100_000;
export const readingInput = z
  .strictObject({ journalLimit: z.int().min(1).max(MAX_JOURNAL_READ).optional() })
  .nullable();

/** `sendCallNow`: the call wait (its `seq` in the snapshot) whose next attempt goes now. */
export const sendCallNowInput = z.strictObject({ seq: z.int().min(0) });

/** `fork`, sent to the new process: the process and journal entry it starts from, and on which context. */
export const forkInput = z.strictObject({
  from: name,
  seq: z.int().min(1),
  context: z.enum(['past', 'live']),
});

/** The most rows the process index answers at once (processIndex.ts `page`). */
export const MAX_INDEX_WINDOW = 500;

const status = z.enum(PROCESS_STATUSES);
const text = z.string().max(200, 'must be at most 200 characters');
const flowIds = z.array(text).max(10_000, 'must name at most 10,000 flows');

/** The process index's `page`: a window of the table, as the browser's store takes one. */
export const pageInput = z.strictObject({
  offset: z.int().min(0),
  limit: z.int().min(1).max(MAX_INDEX_WINDOW),
  status: status.optional(),
  flow: text.optional(),
  order: z
    .strictObject({ by: z.enum(PROCESS_ORDERS), desc: z.boolean(), flows: flowIds.optional() })
    .optional(),
  search: z.strictObject({ text, flows: flowIds.optional() }).optional(),
});
export const changesInput = z.strictObject({ since: z.int().min(0).optional() });
export const countsInput = z.strictObject({ flow: text.optional() });
export const idsInput = z.strictObject({ flow: text, status });

export const eventInput = z.strictObject({ name, payload: z.unknown().optional() });

/** The input as its schema reads it, or the located problems, one line each. */
export function checkInput<T>(
  schema: z.ZodType<T>,
  input: unknown,
): { ok: true; value: T } | { ok: false; errors: string[] } {
  const value = input === null || input === undefined ? {} : input;
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, errors: schemaErrors(parsed.error, value) };
}

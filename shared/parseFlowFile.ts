import type { z } from 'zod';
import { formatJsonPath } from './jsonPath.ts';
import { parseJsonText } from './jsonText.ts';
import { normalPin, type Pin } from './pins.ts';
import { NODE_KINDS, flowSchema, flowsSchema, type Flow } from './schema.ts';

export type ParseResult =
  | {
      ok: true;
      format: 'flow/1' | 'flows/1';
      flows: Flow[];
      /** A `flows/1` file's pinned answers (docs/format.md#pinned-answers); [] when it has none. */
      pins: Pin[];
      warnings: string[];
    }
  | { ok: false; errors: string[] };

/** How many schema problems a refusal lists; the rest are counted, not listed. */
const MAX_ERRORS = 20;

/**
 * Reads a `flow/1` or `flows/1` file (docs/format.md#flows, #workspace-exports). It refuses what is not one with
 * messages that say where and what (`nodes[3].kind: unknown kind "wrok"`), keeps unknown fields,
 * and strips prototype keys at any depth. A well-formed flow that cannot run is accepted here:
 * that is `validateFlow`'s to report.
 */
export function parseFlowFile(text: string): ParseResult {
  const json = parseJsonText(text);
  if (!json.ok) return { ok: false, errors: [json.error] };
  const value = json.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, errors: [`expected a JSON object with "format", got ${describe(value)}`] };
  }
  const format = (value as Record<string, unknown>).format;
  if (format === 'flow/1') {
    const parsed = flowSchema.safeParse(value);
    if (!parsed.success) return { ok: false, errors: schemaErrors(parsed.error, value) };
    return { ok: true, format, flows: [parsed.data], pins: [], warnings: json.warnings };
  }
  if (format === 'flows/1') {
    const parsed = flowsSchema.safeParse(value);
    if (!parsed.success) return { ok: false, errors: schemaErrors(parsed.error, value) };
    const duplicate = duplicateFlowIds(parsed.data.flows);
    if (duplicate.length > 0) return { ok: false, errors: duplicate };
    return {
      ok: true,
      format,
      flows: parsed.data.flows,
      pins: (parsed.data.pins ?? []).map(normalPin),
      warnings: json.warnings,
    };
  }
  const got = format === undefined ? 'no "format" field' : `format ${describe(format)}`;
  return {
    ok: false,
    errors: [
      `format: expected "flow/1" or "flows/1", got ${got}; this is not a wakeflow flow file`,
    ],
  };
}

function duplicateFlowIds(flows: readonly Flow[]): string[] {
  const seen = new Map<string, number>();
  const errors: string[] = [];
  flows.forEach((flow, i) => {
    const first = seen.get(flow.id);
    if (first === undefined) seen.set(flow.id, i);
    else errors.push(`flows[${i}].id: ${describe(flow.id)} is already the id of flows[${first}]`);
  });
  return errors;
}

/** A zod error as lines a designer reads: `nodes[3].kind: unknown kind "wrok" (...)`. */
export function schemaErrors(error: z.ZodError, input: unknown): string[] {
  const lines = error.issues.slice(0, MAX_ERRORS).map((issue) => {
    const where = formatJsonPath(issue.path);
    return `${where}: ${issueMessage(issue, valueAt(input, issue.path))}`;
  });
  if (error.issues.length > MAX_ERRORS) {
    lines.push(`and ${error.issues.length - MAX_ERRORS} more problems`);
  }
  return lines;
}

function issueMessage(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_union':
      if ('discriminator' in issue && issue.discriminator === 'kind') {
        const kinds = NODE_KINDS.join(', ');
        return value === undefined
          ? `missing kind (one of ${kinds})`
          : `unknown kind ${describe(value)} (expected one of ${kinds})`;
      }
      return `not a valid value: ${describe(value)}`;
    case 'invalid_type':
      return value === undefined
        ? `missing (expected ${article(issue.expected)})`
        : `expected ${article(issue.expected)}, got ${describe(value)}`;
    case 'invalid_value':
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${describe(value)}`;
    default:
      return issue.message;
  }
}

function article(expected: string): string {
  if (expected === 'record' || expected === 'object') return 'an object';
  if (expected === 'array') return 'an array';
  return `a ${expected}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = root;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    if (!Object.hasOwn(at, key)) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/** Names a value briefly, so that a huge string never floods a message. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  }
  return `${typeof value} ${String(value)}`;
}

import { z } from 'zod';
import { parseDuration } from '../../shared/duration.ts';
import { formatJsonPath } from '../../shared/jsonPath.ts';
import { parseJsonText } from '../../shared/jsonText.ts';
import { schemaErrors } from '../../shared/parseFlowFile.ts';
import { quote } from '../../shared/quote.ts';
import { flowSchema } from '../../shared/schema.ts';

/** A `scenario/1` file (FORMAT.md §3): flows, a start time and steps for the supervisor. */
const name = z.string().min(1, 'must not be empty');
const json = z.unknown();

const stepSchemas = {
  start: z.strictObject({
    start: name,
    as: name,
    context: json.optional(),
    shareContextWith: name.optional(),
  }),
  advance: z.strictObject({
    advance: z
      .string()
      .refine((s) => parseDuration(s) !== undefined, 'must be an ISO-8601 duration such as PT24H'),
  }),
  event: z.strictObject({ event: name, payload: json.optional(), to: name.optional() }),
  human: z.strictObject({ human: name, node: name, input: json, trigger: name.optional() }),
  setContext: z.strictObject({ setContext: name, path: name, value: json }),
  replaceFlow: z.strictObject({ replaceFlow: flowSchema }),
  resolve: z.strictObject({
    resolve: name,
    choice: z.enum(['continue', 'keep', 'restart', 'cancel']),
  }),
  stop: z.strictObject({ stop: name }),
  resume: z.strictObject({ resume: name }),
  retry: z.strictObject({ retry: name }),
};

export type ScenarioStep = {
  [K in keyof typeof stepSchemas]: z.infer<(typeof stepSchemas)[K]>;
}[keyof typeof stepSchemas];

const scenarioSchema = z.looseObject({
  format: z.literal('scenario/1'),
  flows: z.array(flowSchema),
  clock: z
    .string()
    .refine(
      (s) => !Number.isNaN(Date.parse(s)),
      'must be a date and time such as 2026-01-01T00:00:00Z',
    ),
  steps: z.array(z.unknown()),
});

export interface Scenario {
  flows: z.infer<typeof flowSchema>[];
  clock: number;
  steps: ScenarioStep[];
}

/** Reads a scenario file, or says where and what is wrong with it, one line each. */
export function parseScenario(
  text: string,
): { ok: true; scenario: Scenario } | { ok: false; errors: string[] } {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, errors: [parsed.error] };
  const top = scenarioSchema.safeParse(parsed.value);
  if (!top.success) return { ok: false, errors: schemaErrors(top.error, parsed.value) };
  const seen = new Set<string>();
  for (const [i, f] of top.data.flows.entries()) {
    if (seen.has(f.id))
      return {
        ok: false,
        errors: [`flows[${i}].id: ${quote(f.id)} is already the id of an earlier flow`],
      };
    seen.add(f.id);
  }
  const errors: string[] = [];
  const steps: ScenarioStep[] = [];
  top.data.steps.forEach((raw, index) => {
    const key =
      raw !== null && typeof raw === 'object'
        ? Object.keys(raw).find((k) => Object.hasOwn(stepSchemas, k))
        : undefined;
    if (key === undefined) {
      errors.push(
        `steps[${index}]: not a step; a step is one of ${Object.keys(stepSchemas).join(', ')}`,
      );
      return;
    }
    const step = stepSchemas[key as keyof typeof stepSchemas].safeParse(raw);
    if (!step.success) {
      for (const i of step.error.issues)
        errors.push(`${formatJsonPath(['steps', index, ...i.path])}: ${i.message}`);
    } else steps.push(step.data as ScenarioStep);
  });
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    scenario: { flows: top.data.flows, clock: Date.parse(top.data.clock), steps },
  };
}

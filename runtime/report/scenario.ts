import type { z } from 'zod';
import { formatJsonPath } from '../../shared/jsonPath.ts';
import { parseJsonText } from '../../shared/jsonText.ts';
import { schemaErrors } from '../../shared/parseFlowFile.ts';
import { normalPin, type Pin } from '../../shared/pins.ts';
import { quote } from '../../shared/quote.ts';
import type { flowSchema } from '../../shared/schema.ts';
import {
  scenarioEnvelopeSchema,
  stepSchemas,
  type scenarioResponseSchema,
} from '../../shared/scenarioSchema.ts';

export type ScenarioStep = {
  [K in keyof typeof stepSchemas]: z.infer<(typeof stepSchemas)[K]>;
}[keyof typeof stepSchemas];

export interface Scenario {
  flows: z.infer<typeof flowSchema>[];
  clock: number;
  steps: ScenarioStep[];
  /** The bound on live branches the file sets (`maxLiveBranches`), if it sets one. */
  maxLiveBranches?: number;
  /** How the scenario answers calls (docs/format.md#scenarios); none when absent. */
  responses?: ScenarioResponse[];
  /** Pinned answers, for the calls `responses` does not answer (docs/format.md#pinned-answers). */
  pins?: Pin[];
}

export type ScenarioResponse = z.infer<typeof scenarioResponseSchema>;

/** Reads a scenario file, or says where and what is wrong with it, one line each. */
export function parseScenario(
  text: string,
): { ok: true; scenario: Scenario } | { ok: false; errors: string[] } {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, errors: [parsed.error] };
  const top = scenarioEnvelopeSchema.safeParse(parsed.value);
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
    scenario: {
      flows: top.data.flows,
      clock: Date.parse(top.data.clock),
      steps,
      ...(top.data.responses === undefined ? {} : { responses: top.data.responses }),
      ...(top.data.pins === undefined ? {} : { pins: top.data.pins.map(normalPin) }),
      ...(top.data.maxLiveBranches === undefined
        ? {}
        : { maxLiveBranches: top.data.maxLiveBranches }),
    },
  };
}

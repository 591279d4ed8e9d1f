import { z } from './zod.ts';
import { scenarioSchema } from './scenarioSchema.ts';
import { flowSchema, flowsSchema } from './schema.ts';

import { SCHEMA_FILES, schemaUrl, type SchemaFormat } from './schemaUrl.ts';

const SOURCES = { 'flow/1': flowSchema, 'flows/1': flowsSchema, 'scenario/1': scenarioSchema };

/**
 * The JSON Schema (draft 2020-12) of each format, from the zod schemas that the parsers use, with
 * docs/format.md's words as titles and descriptions. What the schemas check that JSON Schema cannot
 * (refinements) is stated by `.meta()` beside each refinement; what zod cannot represent fails
 * here rather than vanishing from the schema.
 */
export function jsonSchemas(): Record<string, object> {
  const out: Record<string, object> = {};
  for (const [format, source] of Object.entries(SOURCES) as [SchemaFormat, z.ZodType][]) {
    const generated = z.toJSONSchema(source, {
      target: 'draft-2020-12',
      // Input: what a file may hold, which is what a validator is asked about.
      io: 'input',
      unrepresentable: 'throw',
    }) as Record<string, unknown>;
    const { $schema, properties, ...rest } = generated;
    out[SCHEMA_FILES[format]] = {
      $schema,
      $id: schemaUrl(format),
      ...rest,
      properties: {
        // Files carry their own schema's address; the parsers keep it as any unknown field.
        $schema: {
          type: 'string',
          description: 'The address of the JSON Schema of this file, for editors and validators.',
        },
        ...(properties as object),
      },
    };
  }
  return out;
}

/** A schema file's text as `npm run schema` writes it. */
export const schemaText = (schema: object) => `${JSON.stringify(schema, null, 2)}\n`;

// `npm run schema`: writes schema/*.schema.json from the zod schemas (shared/jsonSchemas.ts).
import { writeFileSync } from 'node:fs';
import { jsonSchemas, schemaText } from '../shared/jsonSchemas.ts';

for (const [file, schema] of Object.entries(jsonSchemas())) {
  writeFileSync(new URL(`../schema/${file}`, import.meta.url), schemaText(schema));
  console.log(`schema/${file}`);
}

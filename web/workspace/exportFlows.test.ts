import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkWithSchema } from '../../shared/fixtures/schemaValidator.ts';
import { schemaUrl } from '../../shared/schemaUrl.ts';
import { parseFlowFile } from '../../shared/parseFlowFile.ts';
import { flowFileText, flowsFileText } from './exportFlows.ts';

const examples = new URL('../../examples/', import.meta.url);
const exampleTexts = readdirSync(examples)
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f, readFileSync(new URL(f, examples), 'utf8')] as const);

describe('exported files name and meet their JSON Schema', () => {
  it('each export of each example carries the address of its schema and validates against it (ajv)', () => {
    for (const [name, text] of exampleTexts) {
      const parsed = parseFlowFile(text);
      if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
      const files = [flowsFileText(parsed.flows), ...parsed.flows.map(flowFileText)];
      for (const file of files) {
        const value = JSON.parse(file) as { $schema: string; format: 'flow/1' | 'flows/1' };
        expect(value.$schema, name).toBe(schemaUrl(value.format));
        expect(checkWithSchema(value), name).toEqual({ ok: true, errors: 'No errors' });
      }
    }
  });

  it('a flow imported with another "$schema" is written with its own format\'s, first', () => {
    const flow = {
      $schema: 'https://example.org/old.json',
      format: 'flow/1' as const,
      id: 'f',
      nodes: [],
      edges: [],
    };
    const text = flowFileText(flow);
    expect(Object.keys(JSON.parse(text) as object)[0]).toBe('$schema');
    expect((JSON.parse(text) as { $schema: string }).$schema).toBe(schemaUrl('flow/1'));
  });
});

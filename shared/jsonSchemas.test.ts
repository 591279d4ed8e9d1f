import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkWithSchema as check,
  committedSchema as committed,
} from './fixtures/schemaValidator.ts';
import { jsonSchemas, schemaText } from './jsonSchemas.ts';
import { schemaUrl, SCHEMA_FILES } from './schemaUrl.ts';
import { parseFlowFile } from './parseFlowFile.ts';
import type { Flow } from './schema.ts';

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const exampleFiles = readdirSync(new URL('examples/', root))
  .filter((f) => f.endsWith('.json'))
  .map((f) => `examples/${f}`);
const scenarioFiles = readdirSync(new URL('examples/scenarios/', root)).map(
  (f) => `examples/scenarios/${f}`,
);

describe('the published JSON Schemas (schema/)', () => {
  it('are what `npm run schema` writes from the zod schemas now: run it after changing them', () => {
    for (const [file, schema] of Object.entries(jsonSchemas())) {
      expect(read(`schema/${file}`), `schema/${file} is out of date`).toBe(schemaText(schema));
    }
  });

  it('are draft 2020-12 schemas with titles, descriptions and their own address', () => {
    for (const [format, file] of Object.entries(SCHEMA_FILES)) {
      const schema = committed(file) as Record<string, unknown>;
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id).toBe(schemaUrl(format as keyof typeof SCHEMA_FILES));
      expect(schema.title).toBe(`wakeflow ${format}`);
      expect(schema.description).toEqual(expect.any(String));
    }
  });

  it('accept every example flow and scenario', () => {
    for (const path of [...exampleFiles, ...scenarioFiles]) {
      const result = check(JSON.parse(read(path)));
      expect(result, path).toEqual({ ok: true, errors: 'No errors' });
    }
  });

  it('refuse each file of the hostile corpus that the parser refuses for its shape, and only those', () => {
    const dir = 'e2e/fixtures/bad/';
    const verdicts = readdirSync(new URL(dir, root))
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => {
        const text = read(dir + f);
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          return []; // not JSON: no schema is asked
        }
        return [{ f, parser: parseFlowFile(text).ok, schema: check(value).ok }];
      });
    expect(verdicts.filter((v) => !v.parser).map((v) => v.f)).toContain('unknown-kind.flow.json');
    for (const v of verdicts) expect(v.schema, v.f).toBe(v.parser);
  });

  it('state the refinements the parser makes: ids, one kind per trigger, no "into" on a timer', () => {
    const base = (node: object, id = 'f'): Flow =>
      ({ format: 'flow/1', id, nodes: [node], edges: [] }) as Flow;
    const wait = (trigger: object) => base({ id: 'w', kind: 'continue-after', on: [trigger] });
    const cases: [string, unknown][] = [
      ['an id with "/"', base({ id: 'a/b', kind: 'start' })],
      ['a reserved id', base({ id: 'start', kind: 'start' }, 'constructor')],
      ['an empty id', base({ id: '', kind: 'start' })],
      ['a trigger of no kind', wait({ id: 't' })],
      ['a trigger of two kinds', wait({ id: 't', timer: 'PT1H', event: 'go' })],
      ['a timer with "into"', wait({ id: 't', timer: 'PT1H', into: 'x' })],
      ['a human field of no type', wait({ id: 't', human: { fields: [{ name: 'ok' }] } })],
      [
        'an edge without "to"',
        { ...base({ id: 's', kind: 'start' }), edges: [{ id: 'e', from: 's' }] },
      ],
    ];
    for (const [what, value] of cases) {
      expect(parseFlowFile(JSON.stringify(value)).ok, what).toBe(false);
      expect(check(value).ok, what).toBe(false);
    }
    const fine = wait({ id: 't', event: 'go', into: 'x' });
    expect([parseFlowFile(JSON.stringify(fine)).ok, check(fine).ok]).toEqual([true, true]);
  });

  it("state the scenario's bound on live branches as a whole number from 1 to 100,000", () => {
    const scenario = (maxLiveBranches: unknown) => ({
      format: 'scenario/1',
      flows: [],
      clock: '2026-01-01T00:00:00Z',
      maxLiveBranches,
      steps: [],
    });
    const verdicts = [1, 2.5, 0, 100_000, 100_001, '5'].map((n) => [n, check(scenario(n)).ok]);
    expect(verdicts).toEqual([
      [1, true],
      [2.5, false],
      [0, false],
      [100_000, true],
      [100_001, false],
      ['5', false],
    ]);
  });
});

describe('"$schema" in a file', () => {
  it('is accepted by the parser and kept on import, as any unknown field', () => {
    const text = JSON.stringify({
      $schema: schemaUrl('flow/1'),
      format: 'flow/1',
      id: 'f',
      nodes: [{ id: 's', kind: 'start' }],
      edges: [],
    });
    const parsed = parseFlowFile(text);
    expect(parsed.ok && parsed.flows[0]!.$schema).toBe(schemaUrl('flow/1'));
  });
});

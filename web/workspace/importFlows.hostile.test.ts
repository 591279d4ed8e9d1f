import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deepFile, hugeFile } from '../../e2e/fixtures/bad/generate.ts';
import { importApi } from './importApi.ts';
import type { ImportResult } from './importFlows.ts';

/**
 * Every file of the hostile corpus (e2e/fixtures/bad) through the import path as the import
 * worker runs it, in Node: refused with a message that names what is wrong, or imported with
 * what was done about it. e2e/hostileImport.spec.ts imports each in Chromium; how long each
 * takes is a figure of `npm run bench -- timing`.
 */

const CORPUS = new URL('../../e2e/fixtures/bad/', import.meta.url);
const NOT_CORPUS = new Set(['README.md', 'generate.ts']);
const GENERATED: Record<string, () => string> = {
  'huge.flow.json': hugeFile,
  'deep.flow.json': deepFile,
};

type Expected =
  | { refused: (string | RegExp)[] }
  | {
      imported: string[];
      /** Problems of a flow that cannot run, as the problems list words them. */
      cannotRun?: string[];
      warnings?: (string | RegExp)[];
    };

const EXPECTED: Record<string, Expected> = {
  'not-json.txt': { refused: ['line 1, column 1: unexpected token'] },
  'truncated.flow.json': { refused: [/line 6, column \d+: /] },
  'unknown-kind.flow.json': { refused: ['nodes[1].kind: unknown kind "teleport"'] },
  'deep.flow.json': { refused: ['nested more than 256 levels deep'] },
  'huge.flow.json': { refused: ['the file is 20.0 MB; a flow file can be at most 4 MB'] },
  'proto-keys.flow.json': {
    imported: ['proto'],
    warnings: [/^__proto__: removed/, 'and 6 more such keys removed'],
  },
  'duplicate-ids.flow.json': {
    imported: ['dups'],
    cannotRun: ['node "a": another node already has the id "a"'],
  },
  'dangling-edges.flow.json': {
    imported: ['dangling'],
    cannotRun: ['edge "e1": goes to "nowhere", which is not a node of this flow'],
  },
  'self-loop.flow.json': {
    imported: ['spin'],
    cannotRun: [
      'node "w": the cycle through "w" has no continue-after node; every loop must stop at one so that each pass is saved',
    ],
  },
  'subflow-calls-itself.flows.json': { imported: ['again'] },
  'html-script.flow.json': { imported: ['html'] },
  'pad-bomb.flow.json': { imported: ['pad-bomb'] },
  'range-bomb.flow.json': { imported: ['range-bomb'] },
  'recursion-bomb.flow.json': { imported: ['recursion-bomb'] },
  'regex-bomb.flow.json': { imported: ['regex-bomb'] },
  'regex-lookaround.flow.json': { imported: ['regex-lookaround'] },
};

function corpusFile(name: string): Blob {
  const generate = GENERATED[name];
  return new Blob([generate ? generate() : readFileSync(new URL(name, CORPUS))]);
}

describe('the hostile corpus through the import path (rule: refused or imported with a clear message)', () => {
  it('has an expectation for every file of the corpus', () => {
    const files = readdirSync(CORPUS).filter((f) => !NOT_CORPUS.has(f));
    expect([...files, ...Object.keys(GENERATED)].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s', async (name, expected) => {
    const file = corpusFile(name);
    const result: ImportResult = await importApi.importFile(file, ['html']);
    if ('refused' in expected) {
      if (result.ok) throw new Error(`${name} was imported`);
      expect(result.message).toMatch(/^The file was not imported: /);
      for (const text of expected.refused) expect(result.message).toMatch(text);
      return;
    }
    if (!result.ok) throw new Error(result.message);
    // An id the workspace has is never overwritten: html comes in as html-2.
    expect(result.flows.map((f) => f.id)).toEqual(
      expected.imported.map((id) => (id === 'html' ? 'html-2' : id)),
    );
    const problems = result.cannotRun.flatMap((f) => f.problems);
    for (const problem of expected.cannotRun ?? []) expect(problems).toContain(problem);
    if (!expected.cannotRun) expect(result.cannotRun).toEqual([]);
    for (const warning of expected.warnings ?? [])
      expect(
        result.warnings.some((w) =>
          typeof warning === 'string' ? w.includes(warning) : warning.test(w),
        ),
      ).toBe(true);
    if (!expected.warnings) expect(result.warnings).toEqual([]);
    // Nothing a file holds reaches a prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(result.flows)).not.toMatch(/"(__proto__|constructor|prototype)"/);
  });

  it('keeps HTML and <script> as the text it was', async () => {
    const result = await importApi.importFile(corpusFile('html-script.flow.json'), []);
    if (!result.ok) throw new Error(result.message);
    expect(result.flows[0]!.name).toBe(
      '<img src=x onerror=alert(1)><script>window.__pwned = true</script>',
    );
    expect(result.flows[0]!.nodes[0]).toMatchObject({
      label: '<script>window.__pwned = true</script>',
    });
  });
});

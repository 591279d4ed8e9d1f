import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadExamples } from './loadExamples.ts';

const flowFile = (id: string, nodes: unknown[], edges: unknown[] = []) =>
  JSON.stringify({ format: 'flow/1', id, nodes, edges });

const caller = flowFile(
  'caller',
  [
    { id: 'start', kind: 'start' },
    { id: 'call', kind: 'subflow', flow: 'callee' },
  ],
  [{ id: 'e1', from: 'start', to: 'call' }],
);
const callee = flowFile('callee', [{ id: 'start', kind: 'start' }]);

describe('loadExamples', () => {
  it('checks a sub-flow against the flows of every file', () => {
    const entries = loadExamples({ '../examples/b.json': callee, '../examples/a.json': caller });

    expect(entries.map((e) => e.kind === 'flow' && [e.file, e.flow.id, e.problems])).toEqual([
      ['a.json', 'caller', []],
      ['b.json', 'callee', []],
    ]);
  });

  it('reports a sub-flow that no file holds', () => {
    const [entry] = loadExamples({ '../examples/a.json': caller });

    expect(entry?.kind === 'flow' && entry.problems.map((p) => [p.rule, p.nodeId])).toEqual([
      ['subflow-flow', 'call'],
    ]);
  });

  it('keeps a file that cannot be read, with its errors, beside the others', () => {
    const entries = loadExamples({
      '../examples/bad.json': '{ nope',
      '../examples/b.json': callee,
    });

    expect(entries.map((e) => [e.kind, e.file])).toEqual([
      ['flow', 'b.json'],
      ['unreadable', 'bad.json'],
    ]);
    const bad = entries[1];
    expect(bad?.kind === 'unreadable' && bad.errors.length).toBeGreaterThan(0);
  });
});

// The page seeds a new workspace with the examples without checking them (web/examples.ts): the
// check is here, over the files as bundled, each against every other.
describe('the bundled examples', () => {
  it('all parse and validate with no problems, sub-flows across files included', () => {
    const folder = new URL('../examples/', import.meta.url);
    const files = Object.fromEntries(
      readdirSync(folder)
        .filter((name) => name.endsWith('.json'))
        .map((name) => [`../examples/${name}`, readFileSync(new URL(name, folder), 'utf8')]),
    );
    const entries = loadExamples(files);

    expect(entries.length).toBeGreaterThanOrEqual(4);
    expect(entries.filter((e) => e.kind !== 'flow' || e.problems.length > 0)).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deepFile, hugeFile } from '../e2e/fixtures/bad/generate.ts';
import { describeProblem } from '../shared/describeProblem.ts';
import { parseFlowFile } from '../shared/parseFlowFile.ts';
import type { Flow } from '../shared/schema.ts';
import { validateFlow } from '../shared/validateFlow.ts';
import { runToStop, startSnapshot } from './engine/step.ts';
import { setExpressionTimeout } from './expr/guardrails.ts';

const bad = (name: string) =>
  readFileSync(new URL(`../e2e/fixtures/bad/${name}`, import.meta.url), 'utf8');

function refusal(text: string): string[] {
  const result = parseFlowFile(text);
  if (result.ok) throw new Error('expected the file to be refused');
  return result.errors;
}

function accepted(text: string) {
  const result = parseFlowFile(text);
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result;
}

/** Runs the first flow of a file to its stop. */
async function run(flows: Flow[]) {
  const byId = new Map(flows.map((f) => [f.id, f]));
  return runToStop(startSnapshot(flows[0]!), {}, { flows: (id) => byId.get(id), now: 0 });
}

/**
 * How long each of these takes is a figure of `npm run bench -- timing`, not a check here: a
 * test passes or fails by what happened, whatever the machine's speed.
 */

describe('the corpus of hostile and broken files (e2e/fixtures/bad)', () => {
  it('refuses what is not JSON, saying where', () => {
    expect(refusal(bad('not-json.txt'))).toEqual(['line 1, column 1: unexpected token']);
    expect(refusal(bad('truncated.flow.json'))[0]).toMatch(/^line 6, column \d+: /);
  });

  it('refuses an unknown kind, naming it', () => {
    expect(refusal(bad('unknown-kind.flow.json'))[0]).toMatch(
      /^nodes\[1\]\.kind: unknown kind "teleport"/,
    );
  });

  it('strips prototype keys at every level, names them, and pollutes nothing', () => {
    const result = accepted(bad('proto-keys.flow.json'));
    expect(result.warnings.length).toBeGreaterThanOrEqual(5);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const text = JSON.stringify(result.flows);
    for (const key of ['__proto__', 'constructor', 'prototype'])
      expect(text).not.toContain(`"${key}"`);
    expect(validateFlow(result.flows[0]!)).toEqual([]);
  });

  it.each([
    ['duplicate-ids.flow.json', ['duplicate-id']],
    ['dangling-edges.flow.json', ['edge-missing-node']],
    ['self-loop.flow.json', ['cycle-without-wait']],
  ])('imports %s, which cannot run, and reports why', (file, rules) => {
    const problems = validateFlow(accepted(bad(file)).flows[0]!);
    for (const rule of rules) expect(problems.map((p) => p.rule)).toContain(rule);
    expect(problems.every((p) => describeProblem(p).length < 300)).toBe(true);
  });

  it('a sub-flow that calls itself fails its node at the depth limit', async () => {
    const result = await run(accepted(bad('subflow-calls-itself.flows.json')).flows);
    expect(result.status).toBe('failed');
    expect(result.snapshot.failed?.message).toMatch(/at most 16/);
  });

  it('keeps HTML in labels and expressions as text', async () => {
    const result = accepted(bad('html-script.flow.json'));
    expect(result.flows[0]!.name).toContain('<script>');
    const ran = await run(result.flows);
    expect(ran.context).toEqual({ html: '<script>window.__pwned = true</script>' });
  });

  it.each([
    ['pad-bomb.flow.json', /set "x": built a value too large to hold/],
    ['range-bomb.flow.json', /set "x": built a sequence of more than 100,000 items/],
  ])('%s fails its node with a clear message', async (file, says) => {
    const result = await run(accepted(bad(file)).flows);
    expect(result.status).toBe('failed');
    expect(result.snapshot.failed?.path).toBe('boom');
    expect(result.snapshot.failed?.message).toMatch(says);
  });

  it('recursion-bomb.flow.json, an endless recursion, fails its node at the depth or time limit', async () => {
    // The time limit is a setting: a test sets a small one rather than wait out the second.
    setExpressionTimeout(20);
    try {
      const result = await run(accepted(bad('recursion-bomb.flow.json')).flows);
      expect(result.status).toBe('failed');
      expect(result.snapshot.failed?.path).toBe('boom');
      expect(result.snapshot.failed?.message).toMatch(
        /set "x": (went more than 300 calls deep|ran for more than 0.02 seconds); is it an endless (recursion|loop)\?/,
      );
    } finally {
      setExpressionTimeout();
    }
  });

  it('a catastrophic regular expression is matched in linear time, and the node completes', async () => {
    // Backtracking would take 2^40 steps on this text: a native match no timeout can interrupt.
    const result = await run(accepted(bad('regex-bomb.flow.json')).flows);
    expect(result.status).toBe('done');
    expect(result.context).toEqual({ matched: false });
  });

  it('a lookaround hidden in $eval fails its node, naming the pattern', async () => {
    const result = await run(accepted(bad('regex-lookaround.flow.json')).flows);
    expect(result.status).toBe('failed');
    expect(result.snapshot.failed?.message).toMatch(/\/x\(\?=y\)\/ cannot be used.*lookarounds/);
  });

  it('reads a 20 MB file (the import path refuses it by its size before reading it)', () => {
    const result = parseFlowFile(hugeFile());
    if (!result.ok) throw new Error(result.errors.join('\n'));
    expect(result.flows.map((f) => f.id)).toEqual(['huge']);
  });

  it('refuses a file nested 10,000 levels deep, naming the nesting', () => {
    expect(refusal(deepFile())[0]).toMatch(/nested more than 256 levels deep/);
  });
});

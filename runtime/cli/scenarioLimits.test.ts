import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LIVE_BRANCHES } from '../engine/run.ts';
import { MAX_SCENARIO_LIVE_BRANCHES } from '../../shared/scenarioSchema.ts';
import { text, splitJoin } from '../../shared/fixtures/flows.ts';
import { runCli } from './runCli.ts';
import { parseScenario } from '../report/scenario.ts';
import { simulate } from './simulate.ts';

/**
 * A scenario's own bound on live branches (`maxLiveBranches`, docs/decisions.md): a file that
 * fans out wider than the default of 10,000 says so, and `flow simulate` runs it; a bad bound is
 * refused, naming the field, and runs nothing.
 */

/** start → split → `width` branches, each setting a flag → one join on all of them. */
const wide = (width: number) => splitJoin('wide', width);

const scenarioOf = (width: number, extra: Record<string, unknown> = {}) => ({
  format: 'scenario/1',
  flows: [wide(width)],
  clock: '2026-01-01T00:00:00Z',
  steps: [{ start: 'wide', as: 'p' }],
  ...extra,
});

async function simulateText(content: unknown) {
  const parsed = parseScenario(text(content));
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return (await simulate(parsed.scenario)).processes.p!;
}

describe('rule: a scenario may raise the bound on live branches (maxLiveBranches)', () => {
  it('without the field, a split into 1,000 branches meets at its join: the default bound is 10,000', async () => {
    const p = await simulateText(scenarioOf(1000));
    expect(p.error).toBeNull();
    expect(p.status).toBe('done');
    expect(p.visits.all).toBe(1);
    expect(p.visits.b999).toBe(1);
  });

  it('without the field, a split one wider than the default fails its node, naming the default bound', async () => {
    const p = await simulateText(scenarioOf(MAX_LIVE_BRANCHES + 1));
    expect(p.status).toBe('failed');
    expect(p.error).toMatch(/more than 10,000 live branches/);
  }, 60_000);

  it('with maxLiveBranches above the default, that wider split meets at its join and ends done', async () => {
    const width = MAX_LIVE_BRANCHES + 1;
    const p = await simulateText(scenarioOf(width, { maxLiveBranches: width }));
    expect(p.error).toBeNull();
    expect(p.status).toBe('done');
    expect(p.visits.all).toBe(1);
    expect(p.visits[`b${width - 1}`]).toBe(1);
  }, 60_000);

  it('the bound a file sets is the bound: one branch over it fails, naming it', async () => {
    const p = await simulateText(scenarioOf(8, { maxLiveBranches: 7 }));
    expect(p.status).toBe('failed');
    expect(p.error).toMatch(/more than 7 live branches/);
  });

  it('a bound the caller gives wins over the file (tests reach limits quickly)', async () => {
    const parsed = parseScenario(text(scenarioOf(8, { maxLiveBranches: 1000 })));
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const report = await simulate(parsed.scenario, undefined, { maxLiveBranches: 4 });
    expect(report.processes.p!.error).toMatch(/more than 4 live branches/);
  });
});

describe('bad maxLiveBranches is refused through runCli, naming the field, running nothing', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(joinPath(tmpdir(), 'wakeflow-limits-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function refused(value: unknown): Promise<string[]> {
    const path = joinPath(dir, 'limits.scenario.json');
    await writeFile(path, text(scenarioOf(2, { maxLiveBranches: value })), 'utf8');
    const result = await runCli(['simulate', path]);
    expect(result.code).toBe(1);
    // Nothing ran: no report at all.
    expect(result.out).toEqual([]);
    for (const line of result.err) expect(line).not.toMatch(/^\s+at |internal error/m);
    return result.err;
  }

  it.each([
    ['zero', 0, /must be at least 1/],
    ['negative', -5, /must be at least 1/],
    ['a fraction', 2.5, /must be a whole number/],
    [
      'huge',
      1e12,
      new RegExp(`must be at most ${MAX_SCENARIO_LIVE_BRANCHES.toLocaleString('en')}`),
    ],
    ['one over the highest', MAX_SCENARIO_LIVE_BRANCHES + 1, /must be at most 100,000/],
    ['text', '1000', /number/],
    ['null', null, /number/],
    ['an object', { n: 1000 }, /number/],
  ])('%s', async (_name, value, message) => {
    const err = await refused(value);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^maxLiveBranches: /);
    expect(err[0]).toMatch(message);
  });

  it('the highest bound itself is accepted', async () => {
    const path = joinPath(dir, 'highest.scenario.json');
    await writeFile(
      path,
      text(scenarioOf(2, { maxLiveBranches: MAX_SCENARIO_LIVE_BRANCHES })),
      'utf8',
    );
    const result = await runCli(['simulate', path]);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out[0]!).processes.p.status).toBe('done');
  });
});

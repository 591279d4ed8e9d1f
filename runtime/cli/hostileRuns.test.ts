import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chain, end, flow, start, text, work } from '../../shared/fixtures/flows.ts';
import { oneLine, runCli } from './runCli.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(joinPath(tmpdir(), 'wakeflow-hostile-run-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the real command line in its own Node process, as a user would, and what it printed. */
async function flowCommand(...args: string[]) {
  const run = promisify(execFile)('npx', ['tsx', 'runtime/cli/main.ts', ...args], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  return run.then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: e.code,
      stdout: e.stdout ?? '',
      stderr: e.stderr ?? '',
    }),
  );
}

describe('rule 6: no input makes the CLI crash natively, print a stack trace or exit outside 0/1/2', () => {
  it('simulate of $length of a 2^27-character string reports the failed node, exit 0', async () => {
    const f = flow({
      id: 'f',
      nodes: [start(), work('w', { n: '$length($pad("", 134217728, "x"))' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const path = joinPath(dir, 'huge.scenario.json');
    const scenario = {
      format: 'scenario/1',
      flows: [f],
      clock: '2026-01-01T00:00:00Z',
      steps: [{ start: 'f', as: 'p' }],
    };
    await writeFile(path, JSON.stringify(scenario), 'utf8');
    const result = await flowCommand('simulate', path);
    expect(result.stderr).not.toMatch(/Fatal|^ {4}at |Native stack/m);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      processes: Record<string, { status: string; error: string }>;
    };
    expect(report.processes.p).toMatchObject({ status: 'failed' });
    expect(report.processes.p!.error).toMatch(/built a string of 134,217,728 characters/);
  }, 120_000);

  it('an error inside a command is one line naming itself, never a stack', () => {
    const e = new Error('boom\n    at somewhere (file.ts:1:1)\n    at elsewhere');
    expect(oneLine(e)).toBe('boom at somewhere (file.ts:1:1) at elsewhere');
    expect(oneLine('x'.repeat(10_000))).toHaveLength(501);
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    expect(oneLine(hostile)).toBe('an error that cannot be described');
  });
});

describe('rule 5: flow validate says which functions are bound to the step', () => {
  it('a flow that can run gets ok, exit 0, and a note on stderr for each bound call', async () => {
    const f = flow({
      id: 'f',
      nodes: [start(), work('w', { at: '$now()', r: '$random()' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const path = joinPath(dir, 'bound.flow.json');
    await writeFile(path, text(f), 'utf8');
    const result = await runCli(['validate', path]);
    expect(result.code).toBe(0);
    expect(result.out[0]).toBe('ok');
    expect(result.err).toEqual([
      expect.stringMatching(
        /^note: node "w": set "at" calls \$now\(\), which gives the time of the step/,
      ),
      expect.stringMatching(
        /^note: node "w": set "r" calls \$random\(\), which draws from the process's own seeded sequence/,
      ),
    ]);
  });
});

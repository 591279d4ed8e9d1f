import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isFresh } from '../scripts/cliBundle.mjs';
import { stats, type Stats } from './harness.ts';
import { simulate } from '../runtime/cli/simulate.ts';
import { parseScenario } from '../runtime/report/scenario.ts';
import { plainSimulate } from './plainInterpreter.ts';
import { simulateCases, type SimulateCase, type SimulateReportLike } from './simulateCases.ts';

/**
 * 7. `flow simulate` at scale (issue 17): the command as a user's CI runs it, `npm run -s flow`'s
 * own launcher, start-up included, on the scenarios of simulateCases.ts. There is no peer that
 * runs scenario/1 files, so the figures are times beside the goals and the machine's load.
 */

export interface SimulatePoint {
  name: string;
  description: string;
  goalMs: number;
  /** The whole command, wall clock, ms. */
  wallMs: Stats;
  /** The command's own CPU time (user + system), ms: what the load of the machine adds least to. */
  cpuMs: Stats;
  /** 1-minute load average just before the case ran. */
  load: number;
}

export interface SimulateResult {
  compiled: boolean;
  /** `--help`: start-up and nothing else. */
  startup: SimulatePoint;
  cases: SimulatePoint[];
  /**
   * Issue 29.6: each case in this process, warm, through `simulate` (the command's own function,
   * parsing left out) beside the bench's plain interpreter of the same scenario
   * (plainInterpreter.ts), alternating, each checked by the case's figure.
   */
  beside?: PlainPoint[];
}

export interface PlainPoint {
  name: string;
  engineMs: Stats;
  plainMs: Stats;
  /** engine / plain, medians. */
  ratio: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

/**
 * Has the command print its own CPU time on standard error as it exits: a child's resource use
 * is not otherwise known to Node. The hook costs nothing the command would not pay.
 */
const CPU_HOOK =
  'data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("\\ncpu-us "+(u.user+u.system)+"\\n")})';

/** Runs `node scripts/flow.mjs ARGS` once: its output, wall time and CPU time. */
async function once(args: string[]) {
  const before = process.hrtime.bigint();
  const { stdout, stderr } = await run(
    process.execPath,
    ['--import', CPU_HOOK, 'scripts/flow.mjs', ...args],
    { cwd: ROOT, maxBuffer: 512 * 1024 * 1024 },
  );
  const wall = Number(process.hrtime.bigint() - before) / 1e6;
  const cpu = Number(/cpu-us (\d+)/.exec(stderr)?.[1] ?? NaN) / 1000;
  return { stdout, wall, cpu };
}

async function point(
  name: string,
  description: string,
  goalMs: number,
  args: string[],
  runs: number,
  check?: (stdout: string) => string | null,
): Promise<SimulatePoint> {
  const load = loadavg()[0]!;
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await once(args);
    const problem = check?.(r.stdout);
    if (problem) throw new Error(`simulate: ${name}: ${problem}`);
    wall.push(r.wall);
    cpu.push(r.cpu);
  }
  return { name, description, goalMs, wallMs: stats(wall), cpuMs: stats(cpu), load };
}

export async function simulateBench(
  log: (line: string) => void,
  runs = 3,
): Promise<SimulateResult> {
  // Timed as after `npm install`: compiled from the sources as they are now.
  if (!isFresh()) {
    log('simulate: compiling the command line (scripts/buildCli.mjs) …');
    await run(process.execPath, ['scripts/buildCli.mjs'], { cwd: ROOT });
  }
  const compiled = isFresh();
  if (!compiled) log('simulate: the command line did not compile; timing the sources');
  const dir = mkdtempSync(join(tmpdir(), 'wakeflow-simulate-'));
  try {
    log('simulate: start-up …');
    const startup = await point(
      'start-up (--help)',
      'the command with nothing to do',
      250,
      ['--help'],
      5,
    );
    const cases: SimulatePoint[] = [];
    for (const [i, c] of simulateCases().entries()) {
      log(`simulate: ${c.name} …`);
      const file = join(dir, `case${i}.scenario.json`);
      writeFileSync(file, JSON.stringify(c.scenario));
      cases.push(
        await point(c.name, c.description, c.goalMs, ['simulate', file], runs, (out) =>
          c.check(JSON.parse(out) as SimulateReportLike),
        ),
      );
    }
    const beside: PlainPoint[] = [];
    for (const c of simulateCases()) {
      log(`simulate: ${c.name}, beside a plain interpreter …`);
      beside.push(await besidePlain(c, Math.max(runs, 5)));
    }
    return { compiled, startup, cases, beside };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One case through `simulate` and through the plain interpreter, alternating: three warm-ups
 * each (one left both far from warm: the first timed runs of the short cases cost 4× the later
 * ones), then `runs` of each.
 */
async function besidePlain(c: SimulateCase, runs: number): Promise<PlainPoint> {
  const warmups = 3;
  const parsed = parseScenario(JSON.stringify(c.scenario));
  if (!parsed.ok) throw new Error(`simulate: ${c.name}: ${parsed.errors.join('; ')}`);
  const engine: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < warmups + runs; i++) {
    let start = performance.now();
    const report = await simulate(parsed.scenario);
    const engineMs = performance.now() - start;
    const problem = c.check(report as unknown as SimulateReportLike);
    if (problem) throw new Error(`simulate: ${c.name}: ${problem}`);
    start = performance.now();
    const plainReport = await plainSimulate(c.scenario as Parameters<typeof plainSimulate>[0]);
    const plainMs = performance.now() - start;
    const plainProblem = c.check(plainReport);
    if (plainProblem) throw new Error(`simulate: ${c.name}, plain interpreter: ${plainProblem}`);
    if (i < warmups) continue;
    engine.push(engineMs);
    plain.push(plainMs);
  }
  const engineMs = stats(engine);
  const plainMs = stats(plain);
  return { name: c.name, engineMs, plainMs, ratio: engineMs.median / plainMs.median };
}

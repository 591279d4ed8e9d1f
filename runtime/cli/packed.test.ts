import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../../scripts/cliBundle.mjs';

const run = promisify(execFile);
let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The exit code and output of a command that may fail. */
async function outcome(command: string, args: string[], cwd: string) {
  try {
    const { stdout, stderr } = await run(command, args, { cwd });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// The package's bin (package.json "bin", built by "prepack" into dist/cli/, everything it runs
// bundled in): packed, installed elsewhere, `npx wakeflow validate FILE` checks a flow.
it('npx wakeflow validate runs from the packed package, installed in another folder', async () => {
  dir = await mkdtemp(joinPath(tmpdir(), 'wakeflow-packed-'));
  // The prepack step, then the pack without scripts: `npm pack` alone also runs "prepare", which
  // rebuilds node_modules/.cache's bundle while other tests may be running it.
  await run('npm', ['run', '-s', 'prepack'], { cwd: ROOT });
  const { stdout: packed } = await run(
    'npm',
    ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir],
    { cwd: ROOT },
  );
  const tarball = joinPath(dir, packed.trim().split('\n').pop()!);
  // The package still names the app's dependencies, which the bundled bin never loads: each is
  // taken from this checkout's node_modules, so the install needs no network.
  const { dependencies } = JSON.parse(await readFile(`${ROOT}package.json`, 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const overrides = Object.fromEntries(
    Object.keys(dependencies).map((d) => [d, `file:${ROOT}node_modules/${d}`]),
  );
  await writeFile(
    joinPath(dir, 'package.json'),
    JSON.stringify({ name: 'packed-check', private: true, overrides }),
  );
  await run(
    'npm',
    ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball],
    { cwd: dir },
  );

  const good = await outcome(
    'npx',
    ['--offline', 'wakeflow', 'validate', `${ROOT}examples/order-approval.flow.json`],
    dir,
  );
  expect(good).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ok\n[0-9a-f]{64}\n$/) });

  const broken = joinPath(dir, 'broken.flow.json');
  const edges = [{ id: 'x', from: 'start', to: 'nowhere' }];
  const nodes = [{ id: 'start', kind: 'start' }];
  await writeFile(broken, JSON.stringify({ format: 'flow/1', id: 'f', nodes, edges }));
  const bad = await outcome('npx', ['--offline', 'wakeflow', 'validate', broken], dir);
  expect(bad.code).toBe(1);
  expect(`${bad.stdout}${bad.stderr}`).toContain(
    'edge "x": goes to "nowhere", which is not a node of this flow',
  );
});

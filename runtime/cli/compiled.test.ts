import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, isFresh } from '../../scripts/cliBundle.mjs';

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(joinPath(tmpdir(), 'wakeflow-compiled-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The exit code, standard output and standard error of a command that may fail. */
async function outcome(command: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the compiled command line (scripts/cliBundle.mjs)', () => {
  /** A fake tree: `src/a.ts`, `src/b.ts`, a bundle, and the list of its inputs. */
  async function tree(name: string) {
    const root = joinPath(dir, name) + '/';
    await mkdir(`${root}src`, { recursive: true });
    await writeFile(`${root}src/a.ts`, 'a');
    await writeFile(`${root}src/b.ts`, 'b');
    const bundle = `${root}flow.mjs`;
    const inputs = `${root}inputs.json`;
    await writeFile(inputs, JSON.stringify(['src/a.ts', 'src/b.ts']));
    await writeFile(bundle, '');
    // The sources an hour older than the bundle, whatever the file system's clock resolution.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const f of ['src/a.ts', 'src/b.ts']) await utimes(`${root}${f}`, hourAgo, hourAgo);
    return { root, bundle, inputs };
  }

  it('is fresh when the bundle is newer than every source it was built from', async () => {
    const t = await tree('fresh');
    expect(isFresh(t.bundle, t.inputs, t.root)).toBe(true);
  });

  it('is stale, so the sources run, when one source changed after the bundle', async () => {
    const t = await tree('changed');
    const later = new Date(Date.now() + 3_600_000);
    await utimes(`${t.root}src/b.ts`, later, later);
    expect(isFresh(t.bundle, t.inputs, t.root)).toBe(false);
  });

  it('is stale when the bundle is missing, a source is gone, or the list is broken', async () => {
    const missing = await tree('missing');
    await rm(missing.bundle);
    expect(isFresh(missing.bundle, missing.inputs, missing.root)).toBe(false);
    const gone = await tree('gone');
    await rm(`${gone.root}src/a.ts`);
    expect(isFresh(gone.bundle, gone.inputs, gone.root)).toBe(false);
    const broken = await tree('broken');
    await writeFile(broken.inputs, '{"not": "a list"');
    expect(isFresh(broken.bundle, broken.inputs, broken.root)).toBe(false);
    await writeFile(broken.inputs, '[]');
    expect(isFresh(broken.bundle, broken.inputs, broken.root)).toBe(false);
  });

  it('builds one file that runs the command line as the sources do, and lists its sources', async () => {
    const out = joinPath(dir, 'build');
    const built = await outcome('node', ['scripts/buildCli.mjs', out]);
    expect(built.stderr).toBe('');
    const inputs = JSON.parse(await readFile(joinPath(out, 'inputs.json'), 'utf8')) as string[];
    expect(inputs).toContain('runtime/cli/main.ts');
    expect(inputs).toContain('runtime/engine/run.ts');
    expect(inputs.some((p) => p.startsWith('node_modules/'))).toBe(false);

    const broken = joinPath(dir, 'broken.json');
    await writeFile(broken, '{\n  "format": "flow/1",\n  oops\n}');
    const compiled = await outcome('node', [joinPath(out, 'flow.mjs'), 'validate', broken]);
    // Line 3 is `  oops`: the same message as the sources give (runCli.test.ts).
    expect(compiled).toEqual({
      code: 1,
      stdout: '',
      stderr: 'line 3, column 3: unexpected token\n',
    });
    const usage = await outcome('node', [joinPath(out, 'flow.mjs'), '--help']);
    expect(usage.code).toBe(0);
    expect(usage.stdout).toContain('simulate FILE');
  }, 60_000);

  it('npm run -s flow answers as the sources do, compiled or not', async () => {
    const broken = joinPath(dir, 'npm-broken.json');
    await writeFile(broken, '{\n  "format": "flow/1",\n  oops\n}');
    const result = await outcome('npm', ['run', '-s', 'flow', '--', 'validate', broken]);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'line 3, column 3: unexpected token\n',
    });
  }, 60_000);
});

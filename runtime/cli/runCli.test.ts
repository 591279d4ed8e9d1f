import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chain,
  edge,
  end,
  flow,
  flowsFile,
  join,
  minimalFlow,
  start,
  subflow,
  text,
} from '../../shared/fixtures/flows.ts';
import { signature } from '../../shared/signature.ts';
import { runCli } from './runCli.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const HEX64 = /^[0-9a-f]{64}$/;

let dir: string;
/** Writes `content` to a new file in the temporary folder and returns its path. */
async function file(name: string, content: string): Promise<string> {
  const path = joinPath(dir, name);
  await writeFile(path, content, 'utf8');
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(joinPath(tmpdir(), 'wakeflow-cli-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const main = () =>
  flow({
    id: 'main',
    nodes: [start(), subflow('call', 'child'), end()],
    edges: chain('start', 'call', 'end'),
  });
const child = () => minimalFlow('child');

describe('validate', () => {
  it('prints ok and the 64-hex signature for a valid flow, exit 0', async () => {
    const f = minimalFlow('valid');
    const result = await runCli(['validate', await file('valid.flow.json', text(f))]);
    expect(result.code).toBe(0);
    expect(result.err).toEqual([]);
    expect(result.out).toHaveLength(2);
    expect(result.out[0]).toBe('ok');
    expect(result.out[1]).toMatch(HEX64);
    expect(result.out[1]).toBe(signature(f));
  });

  it('prints one line per problem, on its node or edge, exit 1', async () => {
    // Two problems: a join without depends, and an edge to a node that is not there.
    const f = flow({
      nodes: [start(), join('j'), end()],
      edges: [...chain('start', 'j', 'end'), edge('j', 'nowhere', { id: 'lost' })],
    });
    const result = await runCli(['validate', await file('problems.flow.json', text(f))]);
    expect(result.code).toBe(1);
    expect(result.err).toEqual([]);
    expect(result.out).toHaveLength(2);
    expect(result.out).toEqual(
      expect.arrayContaining([
        'node "j": a join must name the nodes it waits for in "depends"',
        expect.stringMatching(/^edge "lost": .*"nowhere"/),
      ]),
    );
  });

  it('prints the parse error for a broken file, exit 1', async () => {
    // `{"format": "flow/1",` is 20 characters, then a space: `}` is column 22.
    const result = await runCli(['validate', await file('broken.json', '{"format": "flow/1", }')]);
    expect(result).toEqual({
      out: [],
      err: ['line 1, column 22: expected a property name in double quotes'],
      code: 1,
    });
  });

  it('prints the schema error of a file that is JSON but not a flow, exit 1', async () => {
    const doc = { ...minimalFlow(), nodes: [start(), end(), { id: 'x', kind: 'wrok' }] };
    const result = await runCli(['validate', await file('wrok.json', text(doc))]);
    expect(result.code).toBe(1);
    expect(result.out).toEqual([]);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(/^nodes\[2\]\.kind: unknown kind "wrok"/);
  });

  it('says "no such file" for a missing file, exit 1', async () => {
    const missing = joinPath(dir, 'not-there.json');
    const result = await runCli(['validate', missing]);
    expect(result.code).toBe(1);
    expect(result.out).toEqual([]);
    expect(result.err).toEqual([`${missing}: no such file`]);
  });

  it('refuses a folder, exit 1', async () => {
    // The name looks like a file's; only the check on what it is can tell.
    const folder = joinPath(dir, 'flows.json');
    await mkdir(folder);
    const result = await runCli(['validate', folder]);
    expect(result.code).toBe(1);
    expect(result.out).toEqual([]);
    expect(result.err).toEqual([`${folder}: is a folder, not a file`]);
  });

  it('checks each flow of a flows/1 file against the others and prints each id with its signature', async () => {
    const result = await runCli([
      'validate',
      await file('ok.flows.json', text(flowsFile([main(), child()]))),
    ]);
    expect(result.code).toBe(0);
    expect(result.out).toEqual(['ok', `main ${signature(main())}`, `child ${signature(child())}`]);
  });

  it('names the flow of each problem in a flows/1 file', async () => {
    // Without "child" in the file, main's sub-flow node calls a flow that is missing.
    const result = await runCli([
      'validate',
      await file('missing.flows.json', text(flowsFile([main()]))),
    ]);
    expect(result.code).toBe(1);
    expect(result.out).toHaveLength(1);
    expect(result.out[0]).toMatch(/^flow "main", node "call": .*"child"/);
  });

  it('prints warnings for stripped keys on stderr and still succeeds', async () => {
    const input = text(minimalFlow()).replace('{', '{"__proto__": {"polluted": true},');
    const result = await runCli(['validate', await file('proto.json', input)]);
    expect(result.code).toBe(0);
    expect(result.out[0]).toBe('ok');
    // The key was dropped before the signature was taken: it is the clean flow's signature.
    expect(result.out[1]).toBe(signature(minimalFlow()));
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(/^warning: __proto__: removed/);
  });
});

describe('signature', () => {
  it('prints the same signature as signature() for a flow/1 file', async () => {
    const f = main();
    const result = await runCli(['signature', await file('sig.flow.json', text(f))]);
    expect(result).toEqual({ out: [signature(f)], err: [], code: 0 });
    expect(result.out[0]).toMatch(HEX64);
  });

  it('prints each flow id with its signature for a flows/1 file', async () => {
    const result = await runCli([
      'signature',
      await file('sig.flows.json', text(flowsFile([main(), child()]))),
    ]);
    expect(result.code).toBe(0);
    expect(result.out).toEqual([`main ${signature(main())}`, `child ${signature(child())}`]);
    // Two different flows have two different signatures.
    expect(signature(main())).not.toBe(signature(child()));
  });

  it('prints the parse error for a broken file, exit 1', async () => {
    const result = await runCli(['signature', await file('sig-broken.json', '')]);
    expect(result).toEqual({ out: [], err: ['the file is empty'], code: 1 });
  });
});

describe('usage', () => {
  it('refuses an unknown command, naming it, exit 2', async () => {
    const result = await runCli(['valdiate', 'x.json']);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err[0]).toBe('unknown command "valdiate"');
    expect(result.err.join('\n')).toContain('usage:');
  });

  it('refuses a command named like an Object.prototype member', async () => {
    // `COMMANDS.toString` exists on every object: the lookup must use own keys only.
    const result = await runCli(['toString', 'x.json']);
    expect(result.code).toBe(2);
    expect(result.err[0]).toBe('unknown command "toString"');
  });

  it.each(['validate', 'signature'])('refuses %s without FILE, exit 2', async (command) => {
    const result = await runCli([command]);
    expect(result.code).toBe(2);
    expect(result.err[0]).toMatch(new RegExp(`^${command}: `));
    expect(result.err[0]).toContain('FILE');
  });

  it('refuses more than one FILE, exit 2', async () => {
    const result = await runCli(['validate', 'a.json', 'b.json']);
    expect(result.code).toBe(2);
    expect(result.err[0]).toContain('b.json');
  });

  it('prints usage and exits 2 with no command at all', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.out.join('\n')).toContain('usage:');
  });

  it('prints usage and exits 0 when asked for help', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.out.join('\n')).toContain('validate FILE');
  });
});

describe('the real command', () => {
  it('refuses a broken file with exit 1 and no stack trace on stderr', async () => {
    const broken = await file('spawn-broken.json', '{\n  "format": "flow/1",\n  oops\n}');
    const run = promisify(execFile)('npx', ['tsx', 'runtime/cli/main.ts', 'validate', broken], {
      cwd: repoRoot,
    });
    const failure = (await run.then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; stdout?: string; stderr?: string } | undefined;
    expect(failure, 'the command should exit with a non-zero code').toBeDefined();
    expect(failure!.code).toBe(1);
    expect(failure!.stdout).toBe('');
    // Line 3 is `  oops`: the bare word starts in column 3.
    expect(failure!.stderr).toBe('line 3, column 3: unexpected token\n');
    expect(failure!.stderr).not.toMatch(/^ {4}at /m);
  }, 60_000);
});

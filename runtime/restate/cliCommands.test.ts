import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.ts';
import { RESTATE_COMMANDS } from './cliNames.ts';
import { validateCommand } from '../command/validateCommand.ts';

/** The `flow` command line as main.ts runs it: with the Restate commands registered. */
const flow = (args: string[]) => runCli(args, RESTATE_COMMANDS);

// Refusals that need no server: each is answered before any request is made (the ingress named
// here is a port nothing listens on, so a request would be an "cannot reach" error instead).
const NOWHERE = ['--ingress', 'http://127.0.0.1:9'];

describe('the Restate commands of flow, refusing what they are given', () => {
  it('names what is missing, unknown or too much, with exit code 2', async () => {
    const cases: [string[], string][] = [
      [['start', 'main', ...NOWHERE], 'start: name the process with --as ID'],
      [['start', ...NOWHERE], 'start: name FLOW'],
      [['human', 'p1', 'approve', ...NOWHERE], 'human: name INPUT'],
      [['stop', 'p1', 'p2', ...NOWHERE], 'stop: too many arguments: p2'],
      [['status', 'p1', '--colour', ...NOWHERE], "status: Unknown option '--colour'"],
      [['status', '--ingress', 'not a url'], 'status: --ingress: not a URL: not a url'],
      [['serve', '--port', '99999'], 'serve: --port: not a port number: 99999'],
      [['serve', '--admin', '::'], 'serve: --admin: not a URL: ::'],
    ];
    for (const [args, message] of cases) {
      const result = await flow(args);
      expect(result.err[0], args.join(' ')).toContain(message);
      expect(result.code).toBe(2);
    }
  });

  it('says where JSON arguments are broken', async () => {
    const start = await flow(['start', 'main', '--as', 'p1', '--context', '{"a":', ...NOWHERE]);
    expect(start.err[0]).toMatch(/^--context: .*line 1/);
    expect(start.code).toBe(1);
    const event = await flow(['event', 'go', '[1,', ...NOWHERE]);
    expect(event.err[0]).toMatch(/^PAYLOAD: /);
    const human = await flow(['human', 'p1', 'ask', 'yes', ...NOWHERE]);
    expect(human.err[0]).toMatch(/^INPUT: /);
  });

  it('refuses a bad file to deploy with the messages of flow validate, before any request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeflow-deploy-'));
    const file = join(dir, 'bad.json');
    const text = '{"format":"flow/1","id":"x","nodes":[{"id":"s","kind":"wrok"}],"edges":[]}';
    writeFileSync(file, text);
    const result = await flow(['deploy', file, ...NOWHERE]);
    const expected = validateCommand(text);
    expect(result).toEqual({ out: [], err: [...expected.out, ...expected.err], code: 1 });
    expect((await flow(['deploy', join(dir, 'none.json'), ...NOWHERE])).err).toEqual([
      `${join(dir, 'none.json')}: no such file`,
    ]);
  });

  it('says when the server cannot be reached', async () => {
    const result = await flow(['status', 'p1', ...NOWHERE]);
    expect(result.err[0]).toMatch(/^status: cannot reach Restate at http:\/\/127\.0\.0\.1:9/);
    expect(result.code).toBe(1);
  });
});

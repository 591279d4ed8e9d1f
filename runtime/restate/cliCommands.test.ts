import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.ts';
import { RESTATE_COMMANDS } from './cliNames.ts';
import { validateCommand } from '../command/validateCommand.ts';
import { parseTimeout } from './cliCommands.ts';

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
      // Origins are checked before anything listens (docs/restate.md#calls).
      [
        ['serve', '--allow-origin', 'shop.example'],
        'serve: --allow-origin: "shop.example" is not an http(s) origin such as https://shop.example',
      ],
      [
        ['serve', '--allow-origin', 'http://127.0.0.1:1', '--allow-origin', 'ftp://files.example'],
        'serve: --allow-origin: "ftp://files.example" is not an http(s) origin',
      ],
      [
        ['serve', '--allow-origin', 'https://shop.example/api'],
        'serve: --allow-origin: "https://shop.example/api" is more than an origin: give scheme, host and port only (https://shop.example)',
      ],
      [['serve', '--allow-origin'], "serve: Option '--allow-origin <value>' argument missing"],
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

  it('says when the server cannot be reached, and prints the key a change was sent with', async () => {
    const result = await flow(['status', 'p1', ...NOWHERE]);
    expect(result.err[0]).toMatch(
      /^status: cannot reach the Restate server at http:\/\/127\.0\.0\.1:9 .*is it running\?/,
    );
    expect(result.code).toBe(1);
    const stop = await flow(['stop', 'p1', '--idempotency-key', 'k-1', ...NOWHERE]);
    expect(stop.err).toEqual([
      expect.stringMatching(/^stop: cannot reach/),
      'stop: idempotency key k-1',
    ]);
    const chosen = await flow(['stop', 'p1', ...NOWHERE]);
    expect(chosen.err[1]).toMatch(/^stop: idempotency key flow-[0-9a-f-]{36}$/);
  });

  it('takes --ingress and the other common options before the command, as after it', async () => {
    const before = await flow([
      '--ingress',
      'http://127.0.0.1:9',
      '--timeout',
      '1s',
      'status',
      'p1',
    ]);
    expect(before.err[0]).toMatch(
      /^status: cannot reach the Restate server at http:\/\/127\.0\.0\.1:9 /,
    );
    const bad = await flow(['--ingress', 'not a url', 'status']);
    expect(bad).toMatchObject({ err: ['status: --ingress: not a URL: not a url'], code: 2 });
  });

  it('answers --help for every command, with its usage', async () => {
    for (const name of Object.keys(RESTATE_COMMANDS.commands)) {
      const help = await flow([name, '--help']);
      expect(help.code, name).toBe(0);
      expect(help.out[0], name).toMatch(new RegExp(`^usage: flow ${name}`));
      expect(help.out.length, name).toBeGreaterThan(2);
    }
  });

  it('reads a JSON argument from @FILE, and names the file it cannot read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeflow-json-'));
    writeFileSync(join(dir, 'broken.json'), '{"a":');
    const broken = await flow(['human', 'p1', 'ask', `@${join(dir, 'broken.json')}`, ...NOWHERE]);
    expect(broken).toMatchObject({ err: [expect.stringMatching(/^INPUT: .*line 1/)], code: 1 });
    const missing = await flow([
      'start',
      'f',
      '--as',
      'p',
      '--context',
      `@${join(dir, 'no.json')}`,
    ]);
    expect(missing.err).toEqual([`--context: ${join(dir, 'no.json')}: no such file`]);
  });

  it('refuses a bad --timeout, --idempotency-key, --status or invocation id before any request', async () => {
    const cases: [string[], string][] = [
      [['status', '--timeout', 'soon', ...NOWHERE], 'status: --timeout: not a duration'],
      [['stop', 'p', '--idempotency-key', 'a b', ...NOWHERE], 'stop: --idempotency-key: 1 to 200'],
      [['list', '--status', 'asleep', ...NOWHERE], 'list: --status: "asleep" is not one of'],
      [['cancel', 'p1', ...NOWHERE], 'cancel: "p1" is not an invocation id'],
      [['status', '--idempotency-key', 'k', ...NOWHERE], "Unknown option '--idempotency-key'"],
    ];
    for (const [args, message] of cases) {
      const result = await flow(args);
      expect(result.err[0], args.join(' ')).toContain(message);
      expect(result.code, args.join(' ')).toBe(2);
    }
    expect([
      parseTimeout('10s'),
      parseTimeout('500ms'),
      parseTimeout('2m'),
      parseTimeout('3'),
    ]).toEqual([10_000, 500, 120_000, 3000]);
  });
});

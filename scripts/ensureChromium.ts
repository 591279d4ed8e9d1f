// Makes sure a Chromium exists for the browser tests, installing the system package when it can.
// Run with `tsx scripts/ensureChromium.ts`; exits 0 when a browser is found, 1 with one line if not.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { findChromium } from './chromium.ts';

const HOW_TO_FIX =
  'No Chromium found for the browser tests: run `sudo apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium executable.';

function onPath(command: string): boolean {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .some((dir) => dir && existsSync(join(dir, command)));
}

/** Runs a command with its output streamed to ours; true when it exits 0. */
function run(command: string, args: string[]): boolean {
  console.log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

function installWithApt(): boolean {
  if (process.getuid?.() !== 0 || !onPath('apt-get')) return false;
  console.log('No Chromium found; installing the system package with apt-get.');
  return run('apt-get', ['update']) && run('apt-get', ['install', '-y', 'chromium']);
}

function main(): number {
  if (findChromium()) return 0;
  const installed = installWithApt();
  const found = findChromium();
  if (found) {
    console.log(`Chromium ready at ${found}.`);
    return 0;
  }
  console.error(
    installed ? `apt-get installed chromium but it was not found. ${HOW_TO_FIX}` : HOW_TO_FIX,
  );
  return 1;
}

try {
  process.exitCode = main();
} catch (error) {
  // One line, never a stack trace: the reader needs the next step, not our internals.
  const reason = error instanceof Error ? error.message : String(error);
  console.error(`${HOW_TO_FIX} (${reason})`);
  process.exitCode = 1;
}

import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/** Flags for a headless Chromium that stays off the network and needs no user namespace. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * The Chromium to drive in browser tests: `CHROMIUM_PATH` when it names an existing file, else the
 * system's `/usr/bin/chromium`, else Playwright's own download, else `undefined`.
 */
export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  return playwrightChromium();
}

function playwrightChromium(): string | undefined {
  try {
    // executablePath() names where Playwright would put its browser, whether or not it is there.
    const path = chromium.executablePath();
    return path && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

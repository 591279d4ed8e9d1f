import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.ts';

/** Headless Chromium as the e2e tests launch it (Debian's /usr/bin/chromium where present). */
export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found: set CHROMIUM_PATH or install chromium');
  return chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] });
}

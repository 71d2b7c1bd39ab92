import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

// The browser tests' one headless Chromium: starting it is the dearest part of a page test, and two of them side by
// side on a small machine slow everything else down. `test/e2e/browser.test.ts` runs every page test, one after the
// other, on this one browser; each test gets a context of its own (cookies, storage and cache, as a fresh profile).

/** Debian's package; the Dockerfile and CI install it. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
/** Appended to a browser test's name: why it did not run, on a machine without Chromium. */
export const skipped = hasChromium ? '' : ` (skipped: ${CHROMIUM} is not installed)`;
/** Where screenshots are kept after the run (ignored by git; CI may upload them). */
export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-results');

let launched: Promise<Browser> | undefined;

/** The shared browser, started on first use. */
export function sharedChromium(): Promise<Browser> {
  launched ??= chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return launched;
}

/** Closes the shared browser, if it was started. */
export async function closeChromium(): Promise<void> {
  const browser = launched;
  launched = undefined;
  await (await browser)?.close();
}

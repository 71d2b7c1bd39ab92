import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';
import { it } from 'vitest';

// The browser tests' one headless Chromium: starting it is the dearest part of a page test, and two of them side by
// side on a small machine slow everything else down. `test/e2e/browser.test.ts` runs every page test, one after the
// other, on this one browser; each test gets a context of its own (cookies, storage and cache, as a fresh profile).

/**
 * Where a Chromium is looked for, first found wins: `CHROMIUM_PATH` when set (and then alone, so that a wrong one
 * says so rather than quietly running another), Debian's package (the Dockerfile and CI install it), and the one
 * `npx playwright-core install chromium` downloads, for a machine without Debian's.
 */
const PLACES = process.env.CHROMIUM_PATH
  ? [process.env.CHROMIUM_PATH]
  : ['/usr/bin/chromium', chromium.executablePath()];

/** The Chromium the browser tests drive, or undefined where none was found. */
export const CHROMIUM = PLACES.find((path) => existsSync(path));
export const hasChromium = CHROMIUM !== undefined;

/**
 * Why the browser tests do not run on this machine and how to make them run, or undefined where they do. Printed
 * once when the browser tests are collected, and the note of each of them that is skipped: a bare "5 skipped" does
 * not tell a newcomer what is missing.
 */
export const chromiumMissing = hasChromium
  ? undefined
  : `Chromium not found at ${PLACES.join(' or ')}: the browser tests are skipped. Install it with ` +
    '`apt-get install chromium` (Debian, as CI does) or `npx playwright-core install chromium` (any system), ' +
    'or set CHROMIUM_PATH to a Chromium or Chrome.';

/** Where screenshots are kept after the run (ignored by git; CI may upload them). */
export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-results');

/** Skips the running test, with `chromiumMissing` as its note, where there is no Chromium. */
export function skipWithoutChromium(context: { skip: (note: string) => void }): void {
  if (chromiumMissing !== undefined) context.skip(chromiumMissing);
}

/** A test that needs Chromium: where there is none, skipped with `chromiumMissing` as its note. */
export function browserTest(name: string, fn: () => Promise<void>): void {
  it(name, async (context) => {
    skipWithoutChromium(context);
    await fn();
  });
}

let launched: Promise<Browser> | undefined;

/** The shared browser, started on first use. */
export function sharedChromium(): Promise<Browser> {
  if (CHROMIUM === undefined) return Promise.reject(new Error(chromiumMissing));
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

/**
 * A fresh context (cookies, storage and cache, as a fresh profile) of the shared browser. Its waits have no time
 * limit of their own: a page is waited for as long as its work takes, which a busy machine stretches, and only the
 * test's hang guard (vitest.config.ts) ends a wait for what never comes.
 */
export async function newContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await (await sharedChromium()).newContext(options);
  context.setDefaultTimeout(0);
  return context;
}

/** Closes the shared browser, if it was started. */
export async function closeChromium(): Promise<void> {
  const browser = launched;
  launched = undefined;
  await (await browser)?.close();
}

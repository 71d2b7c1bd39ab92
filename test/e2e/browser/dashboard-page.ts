import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { newContext } from '../../support/chromium.js';

// Opening the dashboard in the shared Chromium, for the dashboard's browser tests.

/** A fresh browser context on the shared Chromium, every request outside the sandbox refused and noted. */
export async function openContext(base: string, viewport = { width: 1400, height: 1800 }) {
  const context = await newContext({ viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const outside: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${base}/`) || url.startsWith('data:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  const close = () => context.close();
  const clipboard = () => page.evaluate('navigator.clipboard.readText()') as Promise<string>;
  return { page, outside, errors, close, clipboard };
}

/** Opens the dashboard and waits until its live feed is connected. */
export async function openDashboard(page: Page, url: string): Promise<void> {
  expect((await page.goto(url))?.status()).toBe(200);
  await page.locator('#live', { hasText: 'live' }).waitFor();
}

import { afterEach, expect, it, vi } from 'vitest';

// Without Chromium the browser tests are skipped: `npm test` must say why and how to install it, not a bare
// "5 skipped". The support module decides where it looks when it is loaded, so each case loads it afresh.

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function chromiumSupport(path: string) {
  vi.stubEnv('CHROMIUM_PATH', path);
  vi.resetModules();
  return import('../support/chromium.js');
}

it('without Chromium, names where it looked and both ways to install one, and skips with that note', async () => {
  const support = await chromiumSupport('/nonexistent/chromium');
  expect(support.hasChromium).toBe(false);
  expect(support.chromiumMissing).toContain('Chromium not found at /nonexistent/chromium');
  expect(support.chromiumMissing).toContain('`apt-get install chromium`');
  expect(support.chromiumMissing).toContain('`npx playwright-core install chromium`');
  const skip = vi.fn();
  support.skipWithoutChromium({ skip });
  expect(skip).toHaveBeenCalledWith(support.chromiumMissing);
});

it('with a Chromium where CHROMIUM_PATH says, runs: no note, no skip', async () => {
  // Any file that exists stands for the browser here: nothing is launched.
  const support = await chromiumSupport(process.execPath);
  expect(support.CHROMIUM).toBe(process.execPath);
  expect(support.chromiumMissing).toBeUndefined();
  const skip = vi.fn();
  support.skipWithoutChromium({ skip });
  expect(skip).not.toHaveBeenCalled();
});

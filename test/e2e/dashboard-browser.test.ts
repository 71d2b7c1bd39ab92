import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials as credentialsSchema } from '../../src/control/clients/schemas.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox.js';
import { dataOf } from '../support/answers.js';
import { bulkHelpers, processBatch } from '../support/bulk.js';
import { startReceiver } from '../support/receiver.js';
import { A, call } from '../support/sandbox.js';
import { webhookSetup } from '../support/webhooks.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
/** Where the screenshot of the page is kept after the run (ignored by git; CI may upload it). */
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-results');

const { transfers, create } = bulkHelpers({
  label: 'ui',
  narration: 'dashboard',
  batchName: 'Dashboard payroll',
});

/**
 * Every aria-valuenow the batch's progress bar shows, as the page receives it, gathered in the page. (A script
 * string: the test's own code is compiled without the browser's types.)
 */
function watchProgress(page: Page, batchId: string): Promise<void> {
  return page.evaluate(`(() => {
    const seen = (window.progressSeen = []);
    const record = () => {
      const value = document.querySelector('#batch-${batchId} [role=progressbar]')?.getAttribute('aria-valuenow');
      if (value && seen[seen.length - 1] !== value) seen.push(value);
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true });
    record();
  })()`);
}

/**
 * One headless Chromium for the file: starting it is most of what a test of a page costs, and each test gets a
 * context of its own (cookies, storage and cache of its own, as a fresh profile has).
 */
let chromiumBrowser: Browser | undefined;
beforeAll(async () => {
  if (!hasChromium) return;
  chromiumBrowser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
});
afterAll(async () => {
  await chromiumBrowser?.close();
});

/** A fresh browser context on the shared Chromium, every request outside the sandbox refused and noted. */
async function openContext(base: string) {
  if (!chromiumBrowser) throw new Error('Chromium did not start');
  const context = await chromiumBrowser.newContext({ viewport: { width: 1400, height: 1800 } });
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
  return { page, outside, errors, close };
}

describe('the dashboard in a browser', () => {
  let sandbox: RunningSandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Awaited<ReturnType<typeof openContext>> | undefined;
  beforeAll(async () => {
    // Items slow enough that the bar can be seen moving: 24 items, two at a time, 60 ms each of the virtual clock,
    // which the test moves itself.
    sandbox = await startSandbox({
      inMemory: true,
      port: 0,
      log: () => undefined,
      bulkConcurrency: 2,
      bulkItemDelay: 60,
      webhookRetryBase: 10,
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await sandbox?.close();
  });

  it.skipIf(!hasChromium)(
    `shows a batch's progress live, sends a payment from its form and shows the delivery${hasChromium ? '' : ` (skipped: ${CHROMIUM} is not installed)`}`,
    async () => {
      const { account } = await webhookSetup(sandbox, receiver.url, {
        type: 'permanent',
        reference: 'ui-va',
      });
      browser = await openContext(sandbox.url);
      const { page, outside, errors } = browser;

      expect((await page.goto(`${sandbox.url}/__sandbox/ui`))?.status()).toBe(200);
      await page.locator('#live', { hasText: 'live' }).waitFor();
      // The fixtures, with naira balances.
      await expect(page.locator(`#client-${A.id}`).textContent()).resolves.toContain('₦5,000,000.00');

      // A batch started by the app under test, as a developer's app would, appears and moves while it runs.
      const batch = await create(sandbox, transfers(24));
      const row = page.locator(`#batch-${batch.id}`);
      await row.waitFor();
      await watchProgress(page, batch.id);
      // Half the batch, then the page shows it half done; then the rest. The clock is moved instead of waited for.
      await sandbox.clock.freeze(true);
      expect((await processBatch(sandbox, batch.id)).status).toBe(202);
      await sandbox.clock.advance(6 * 60);
      await row.locator('[role=progressbar][aria-valuenow="50"]').waitFor();
      await sandbox.clock.advance(6 * 60);
      await sandbox.clock.freeze(false);
      await row.locator('[role=progressbar][aria-valuenow="100"]').waitFor({ timeout: 20_000 });
      await row.locator('.badge', { hasText: 'completed' }).waitFor();
      const seen = (await page.evaluate('window.progressSeen')) as string[];
      expect(seen.at(-1)).toBe('100');
      expect(
        seen.some((v) => Number(v) > 0 && Number(v) < 100),
        `values seen: ${seen.join(', ')}`,
      ).toBe(true);
      await expect(row.textContent()).resolves.toContain('24 completed · 0 failed · 0 pending of 24');

      // Its items, from the control API.
      await row.getByRole('button', { name: 'Items' }).click();
      const items = page.locator(`#items-${batch.id} tbody tr`);
      await items.nth(23).waitFor();
      expect(await items.count()).toBe(24);

      // An incoming payment from the form: the delivery appears, acknowledged, without a reload.
      await page.getByLabel('Virtual account number').fill(account.accountNumber);
      await page.getByLabel('Amount in naira').fill('1500');
      await page.getByLabel('Payer name').fill('Ada from the browser');
      await page.getByRole('button', { name: 'Send payment' }).click();
      await page.locator('#toast', { hasText: '201 Payment received' }).waitFor();
      const delivery = page.locator('#deliveries tr', { hasText: account.accountNumber });
      await delivery.locator('.badge', { hasText: 'delivered' }).waitFor({ timeout: 20_000 });
      await expect(delivery.textContent()).resolves.toContain('₦1,500.00');
      await expect(delivery.locator('.timeline li.ok').textContent()).resolves.toContain('200');
      expect(receiver.received.at(-1)?.body).toMatchObject({
        amount: 150000,
        accountName: 'Ada from the browser',
      });

      // Approve A2 from its row: the row turns approved through the live feed.
      const a2 = page.locator(`[data-business="${A.a2.id}"]`);
      await a2.getByRole('button', { name: 'Approve' }).click();
      await a2.locator('.badge', { hasText: /^approved$/ }).waitFor();
      const credentials = dataOf(await call(sandbox, 'GET', '/__sandbox/credentials'), credentialsSchema);
      const approved = credentials.clients.flatMap((c) => c.businesses).find((b) => b.id === A.a2.id);
      expect(approved?.isApproved).toBe(true);

      // The request journal, live and filterable: the batch creation is there, and a filter hides the rest.
      await page.locator('#requests tr', { hasText: '/funds/bulk-transfer/process' }).first().waitFor();
      await page.getByLabel('Filter by path').fill('/process');
      const visible = page.locator('#requests tr:not([hidden])');
      await expect(visible.count()).resolves.toBeGreaterThan(0);
      for (const text of await visible.allTextContents()) expect(text).toContain('/process');

      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
    },
    60_000,
  );
});

describe('the dashboard with a busy sandbox', () => {
  let sandbox: RunningSandbox;
  let browser: Awaited<ReturnType<typeof openContext>> | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ inMemory: true, port: 0, log: () => undefined, journalSize: 5000 });
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it.skipIf(!hasChromium)(
    'stays usable with hundreds of batches and thousands of journal lines: the page keeps the newest rows only',
    async () => {
      for (let i = 0; i < 300; i++) await create(sandbox, transfers(1), undefined, `Batch ${i}`);
      for (let i = 0; i < 3000; i++) await call(sandbox, 'GET', '/__sandbox/health');
      browser = await openContext(sandbox.url);
      const { page, outside, errors } = browser;
      const started = performance.now();
      expect((await page.goto(`${sandbox.url}/__sandbox/ui`))?.status()).toBe(200);
      await page.locator('#live', { hasText: 'live' }).waitFor();
      const loadMs = performance.now() - started;
      // The newest first, and no more than the page renders at first.
      expect(await page.locator('#batches > tr').count()).toBe(100);
      await expect(page.locator('#batches > tr').first().textContent()).resolves.toContain('Batch 299');
      expect(await page.locator('#requests > tr').count()).toBe(200);
      // Thousands more lines while it is open: a burst reaches the page as its newest lines (at most 200 a
      // frame), the page keeps at most 1 000, and it still shows what comes next.
      for (let i = 0; i < 3000; i++) await call(sandbox, 'GET', `/__sandbox/health?n=${i}`);
      const last = await create(sandbox, transfers(1), undefined, 'The last one');
      await page.locator(`#batch-${last.id}`).waitFor();
      await page
        .locator('#requests > tr[data-path$="/bulk-transfer"]')
        .first()
        .waitFor({ state: 'attached' });
      const rows = await page.locator('#requests > tr').count();
      expect(rows).toBeGreaterThan(200);
      expect(rows).toBeLessThanOrEqual(1000);
      expect(await page.locator('#batches > tr').count()).toBe(101);
      await page.getByLabel('Filter by path').fill('/bulk-transfer');
      expect(await page.locator('#requests > tr:not([hidden])').count()).toBeGreaterThan(0);
      expect(loadMs, 'page load to live, ms').toBeLessThan(10_000);
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
    },
    60_000,
  );
});

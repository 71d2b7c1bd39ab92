import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox.js';
import { bulkHelpers, drain, processBatch } from '../../support/bulk.js';
import { ARTIFACTS, browserTest } from '../../support/chromium.js';
import { transferEntry } from '../../support/money.js';
import { startReceiver } from '../../support/receiver.js';
import { call } from '../../support/sandbox.js';
import { webhookSetup } from '../../support/webhooks.js';
import { openContext, openDashboard } from './dashboard-page.js';

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
/** A receiver account the default scenario fails with 51 Insufficient Funds. */
const FAILING_ACCOUNT = '0000000051';
/** A laptop's window, the narrowest with the sections' links beside the page (`style.css`), and a desktop's. */
const WIDTHS = [1024, 1200, 1440];
/** The sections that offer an action once the state below is made: each must show at least one button. */
const WITH_ACTIONS = [
  'sec-clock',
  'sec-clients',
  'sec-ledger',
  'sec-batches',
  'sec-deliveries',
  'sec-accounts',
  'sec-outbox',
  'sec-disputes',
];

const { transfer, create, getBatch } = bulkHelpers({
  label: 'width',
  narration: 'width check',
  batchName: 'Width payroll',
});

interface Reach {
  /** What is cut off or out of the window, in words. */
  problems: string[];
  /** How many buttons each section shows. */
  buttons: Record<string, number>;
}

/**
 * In the page: every button that shows in a section of the page, held against the window and against every
 * ancestor that clips it. Sideways, an ancestor that scrolls counts as one that clips: a button reached only by
 * scrolling a panel sideways is the cut-off button a reader does not find. Up and down, the page and the long
 * lists scroll by design, so only an ancestor that hides its overflow counts. (A script string: the test's own code
 * is compiled without the browser's types.)
 */
const REACH = `(() => {
  const problems = [];
  const buttons = {};
  const root = document.documentElement;
  const width = root.clientWidth;
  if (root.scrollWidth > width) problems.push('the page scrolls sideways: ' + root.scrollWidth + ' px in ' + width);
  const span = (left, right) => Math.round(left) + '-' + Math.round(right);
  for (const section of document.querySelectorAll('main > section')) {
    buttons[section.id] = 0;
    for (const button of section.querySelectorAll('button')) {
      if (!button.checkVisibility()) continue;
      buttons[section.id] += 1;
      const box = button.getBoundingClientRect();
      const cut = [];
      if (box.left < 0 || box.right > width) cut.push('the window (0-' + width + ')');
      for (let el = button.parentElement; el && el !== root; el = el.parentElement) {
        const style = getComputedStyle(el);
        const clipsX = style.overflowX !== 'visible';
        const clipsY = style.overflowY === 'hidden' || style.overflowY === 'clip';
        if (!clipsX && !clipsY) continue;
        const outer = el.getBoundingClientRect();
        const left = outer.left + el.clientLeft;
        const top = outer.top + el.clientTop;
        const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + [...el.classList].map((c) => '.' + c).join('');
        if (clipsX && (box.left < left - 0.5 || box.right > left + el.clientWidth + 0.5))
          cut.push(name + ' (' + span(left, left + el.clientWidth) + ')');
        if (clipsY && (box.top < top - 0.5 || box.bottom > top + el.clientHeight + 0.5)) cut.push(name + ' (top or bottom)');
      }
      if (cut.length > 0)
        problems.push(section.id + ' "' + button.textContent.trim() + '" at ' + span(box.left, box.right) + ' is cut off by ' + cut.join(', '));
    }
  }
  return { problems, buttons };
})()`;

describe('the dashboard at 1024, 1200 and 1440 px', () => {
  let sandbox: RunningSandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    // A receiver that is down and a retry a minute away: the delivery stays pending, with its Redeliver button.
    sandbox = await startSandbox({ inMemory: true, port: 0, log: () => undefined, webhookRetryBase: 60_000 });
    receiver = await startReceiver([], 500);
  });
  afterAll(async () => {
    await receiver?.close();
    await sandbox?.close();
  });

  browserTest(
    "shows every section's action buttons whole, inside the window and their panels, with no sideways scroll, and a batch's items by itemIndex",
    async () => {
      // A state in which every section offers its actions: a failed transfer and a good one (its request), a
      // batch with a failed item (Reprocess, its items open), a pending delivery (Redeliver), a virtual account
      // (Pay into it), an invitation (Copy), an open dispute (Resolve, Reject), and A2 waiting to be approved.
      const { headers, account } = await webhookSetup(sandbox, receiver.url, {
        type: 'temporal',
        reference: 'width-va',
      });
      const failed = await call(sandbox, 'POST', TRANSFER, {
        headers,
        body: {
          ...transfer({ receiverAccountNumber: FAILING_ACCOUNT }),
          narration: 'Rent for the Lekki office',
        },
      });
      expect(failed.status).toBeLessThan(500);
      const good = await call(sandbox, 'POST', TRANSFER, {
        headers,
        body: { ...transfer(), retrievalReference: 'width-salary-1', narration: 'Salary' },
      });
      expect(good.status).toBe(200);
      const { id: batchId } = await create(sandbox, [
        transfer(),
        transfer({ receiverAccountNumber: FAILING_ACCOUNT }),
      ]);
      expect((await processBatch(sandbox, batchId)).status).toBe(202);
      await drain(sandbox);
      const paid = await call(sandbox, 'POST', '/__sandbox/incoming-payments', {
        body: { accountNumber: account.accountNumber, amount: 70_000 },
      });
      expect(paid.status).toBe(201);
      const roles = await call(sandbox, 'GET', '/api/v1/clients/members/roles', { headers });
      const role = (roles.body.data as { id: string; name: string }[]).find((r) => r.name !== 'Owner');
      const invited = await call(sandbox, 'POST', '/api/v1/clients/members', {
        headers,
        body: { email: 'new.member@adebayo.test', memberRoleId: role?.id },
      });
      expect(invited.status, JSON.stringify(invited.body)).toBeLessThan(300);
      const opened = await call(sandbox, 'POST', '/api/v1/clients/business/disputes', {
        headers,
        body: {
          transactionId: (await transferEntry(sandbox, 'width-salary-1')).id,
          description: 'Paid twice',
        },
      });
      expect(opened.status, JSON.stringify(opened.body)).toBeLessThan(300);

      const itemIndexes = (await getBatch(sandbox, batchId)).items.map((i) => String(i.itemIndex));
      expect(itemIndexes).toEqual(['0', '1']);

      await mkdir(ARTIFACTS, { recursive: true });
      for (const width of WIDTHS) {
        const browser = await openContext(sandbox.url, { width, height: 900 });
        try {
          const { page, outside, errors } = browser;
          await openDashboard(page, `${sandbox.url}/__sandbox/ui`);
          await page.locator(`#batch-${batchId}`).getByRole('button', { name: 'Items' }).click();
          await page.locator(`#items-${batchId} tbody tr[data-status="failed"]`).waitFor();
          const reach = (await page.evaluate(REACH)) as Reach;
          // Kept to look at (test-results/): what a reader of that width sees.
          await page.screenshot({ path: join(ARTIFACTS, `dashboard-${width}.png`), fullPage: true });
          expect(reach.problems, `at ${width} px`).toEqual([]);
          for (const id of WITH_ACTIONS)
            expect(reach.buttons[id], `buttons of ${id} at ${width} px`).toBeGreaterThan(0);
          // The batch's items are part of its section: their Reprocess and request buttons were held too. They
          // are numbered as the API numbers them, by itemIndex.
          await expect(page.locator(`#items-${batchId} button`).count()).resolves.toBe(2);
          await expect(
            page.locator(`#items-${batchId} tbody tr > td:first-child`).allTextContents(),
          ).resolves.toEqual(itemIndexes);
          expect(outside).toEqual([]);
          expect(errors).toEqual([]);
        } finally {
          await browser.close();
        }
      }
    },
  );
});

import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox.js';
import { ledgerOf, transferEntry } from '../../support/money.js';
import { call, closedAfterEach, ownerHeaders } from '../../support/sandbox.js';

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const HOUR = 3_600_000;
const { sandboxFor } = closedAfterEach();

async function page(sandbox: Sandbox): Promise<string> {
  const res = await sandbox.app.request('/__sandbox/ui');
  expect(res.status).toBe(200);
  return res.text();
}

/** The ledger row of one entry, as the page renders it. */
function transactionRow(html: string, id: string): string {
  const from = html.indexOf(`<tr id="tx-${id}"`);
  expect(from, `no row of ${id}`).toBeGreaterThanOrEqual(0);
  return html.slice(from, html.indexOf('</tr>', from));
}

describe('the dashboard shows money after the answer', () => {
  it('a reversal due, then done, and the reversal entry naming the original', async () => {
    const sandbox = await sandboxFor();
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    await call(sandbox, 'POST', '/__sandbox/scenario/rules', {
      body: {
        rules: [{ on: 'transfer', effect: { reverse: { afterMs: HOUR, reason: 'Returned by bank' } } }],
      },
    });
    const headers = await ownerHeaders(sandbox);
    const body = {
      amount: 150000,
      receiverAccountNumber: '0123456789',
      receiverBankCode: '058',
      retrievalReference: 'dash-reverse',
      narration: 'Pay',
    };
    expect((await call(sandbox, 'POST', TRANSFER, { headers, body })).status).toBe(200);
    const original = await transferEntry(sandbox, 'dash-reverse');
    expect(transactionRow(await page(sandbox), original.id)).toMatch(/reversal due <[^>]+>in 1 h/);
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: HOUR } });
    const after = await page(sandbox);
    const row = transactionRow(after, original.id);
    expect(row).toContain('Returned by bank');
    expect(row).not.toContain('reversal due');
    const reversal = (await ledgerOf(sandbox)).transactions.find((t) => t.kind === 'reversal');
    expect(transactionRow(after, reversal?.id ?? '')).toContain(`reverses ${original.id}`);
  });
});

describe('the dashboard lists the rules in force', () => {
  it('each with what it matches, calendars and counts included', async () => {
    const sandbox = await sandboxFor();
    const rule = {
      on: 'http',
      match: {
        path: '^/api/v1/',
        between: { from: '10:00', to: '10:30' },
        over: { count: 60, windowMs: 60000 },
      },
      effect: { http: { status: 429 } },
    };
    await call(sandbox, 'POST', '/__sandbox/scenario/rules', { body: { rules: [rule] } });
    const html = await page(sandbox);
    const from = html.indexOf('<details id="scenario-rules"');
    expect(from).toBeGreaterThanOrEqual(0);
    const panel = html.slice(from, html.indexOf('</details>', from));
    expect(panel).toContain(
      '&quot;between&quot;:{&quot;from&quot;:&quot;10:00&quot;,&quot;to&quot;:&quot;10:30&quot;}',
    );
    expect(panel).toContain('&quot;over&quot;:{&quot;count&quot;:60,&quot;windowMs&quot;:60000}');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentReceived } from '../../../src/contract/control/incoming-payments.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import { bulkHelpers, processBatch } from '../../support/bulk.js';
import { setBalance } from '../../support/money.js';
import { startReceiver } from '../../support/receiver.js';
import { A, call, memorySandbox } from '../../support/sandbox.js';
import { incomingPayment, webhookSetup } from '../../support/webhooks.js';

/*
 * Background work in the log, in process through the `log` option, in the pretty format: a batch's start and
 * settlement, each failed webhook attempt with when the next is due, and what `quiet` (the default in code) keeps.
 * The clock is frozen and moved by hand, so durations and due times are exact.
 */

const bulk = bulkHelpers({ label: 'LOG', narration: 'log test', batchName: 'Payroll' });
const HOOK_USER = 'hook-user';
const HOOK_PASS = 'hook-p4ss';
const HOOK_TOKEN = 'q-s3cret';
const SECRETS = [HOOK_USER, HOOK_PASS, HOOK_TOKEN, A.webhookAuthKey];
const TIME = String.raw`\d\d:\d\d:\d\d\.\d{3}`;

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver([], 500);
});
afterAll(() => receiver.close());

/** The receiver's URL with a userinfo and a query secret, as a client might set it. */
const secretUrl = () =>
  `${receiver.url.replace('http://', `http://${HOOK_USER}:${HOOK_PASS}@`)}?token=${HOOK_TOKEN}`;
/** How the log shows it. */
const shownUrl = () => `${receiver.url.replace('http://', 'http://***@')}?token=***`;

/**
 * On a sandbox logging into `lines`, frozen: a payment whose webhook fails twice (2 attempts, retry after 1 s), and
 * a batch of two items of 1 s each, `failing` of which fail: on purpose (to a magic account of the default
 * scenario), or for a real shortage of balance (the business holds the items' amounts, which lets the batch start,
 * but not their fees, so the second item finds too little); then one advance of a second.
 */
async function run(sandbox: Sandbox, failing: number, how: 'scenario' | 'shortage' = 'scenario') {
  await sandbox.clock.freeze(true);
  const frozenAt = sandbox.clock.now();
  const { account } = await webhookSetup(sandbox, secretUrl(), {
    type: 'permanent',
    reference: `log-${failing}`,
  });
  const paid = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 50_000 });
  expect(paid.status).toBe(201);
  if (how === 'shortage') await setBalance(sandbox, A.a1.id, 2 * AMOUNT);
  const items =
    how === 'scenario'
      ? [...bulk.transfers(2 - failing), ...bulk.transfers(failing, { receiverAccountNumber: '0000000051' })]
      : bulk.transfers(2);
  const batch = await bulk.create(sandbox, items);
  expect((await processBatch(sandbox, batch.id)).status).toBe(202);
  await sandbox.clock.advance(1000);
  return { frozenAt, batch, deliveryId: dataOf(paid, paymentReceived).deliveryId };
}

const options = { webhookAttempts: 2, webhookRetryBase: 1000, bulkItemDelay: 1000 };
/** What each of the helpers' items moves, kobo. */
const AMOUNT = Number(bulk.transfers(1)[0]?.amount);

/** The lines of one event, in the order they were written. */
const of = (lines: string[], event: string) => lines.filter((l) => l.includes(` ${event} `));

describe('background work in the log (pretty, in process)', () => {
  it('with quiet: false, a line when a batch starts and settles, and one per failed webhook attempt', async () => {
    const lines: string[] = [];
    const sandbox = await memorySandbox({ ...options, quiet: false, log: (line) => lines.push(line) });
    const { frozenAt, batch, deliveryId } = await run(sandbox, 0);
    const rest = `${A.id}, business ${A.a1.id}`;
    expect(of(lines, 'batch.started')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${TIME} info {3}batch\\.started ${batch.id} "Payroll" \\("${batch.bulkReference}"\\): 2 items, client ${rest}$`,
        ),
      ),
    ]);
    // Both items waited their second on the frozen clock: the advance is the batch's whole duration.
    expect(of(lines, 'batch.settled')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${TIME} info {3}batch\\.settled ${batch.id} "Payroll": completed, 2 completed, 0 failed, in 1000 ms on the sandbox clock$`,
        ),
      ),
    ]);
    // The first attempt went out when the payment arrived, the second a second later on the sandbox clock.
    const next = new Date(frozenAt + 1000).toISOString();
    const failed = of(lines, 'webhook.attempt_failed').map((l) => l.slice(13));
    expect(failed).toEqual([
      `warn   webhook.attempt_failed ${deliveryId} to ${shownUrl()}: HTTP 500: only 200 acknowledges a delivery; attempt 1 of 2, next attempt at ${next} (sandbox clock)`,
      `warn   webhook.attempt_failed ${deliveryId} to ${shownUrl()}: HTTP 500: only 200 acknowledges a delivery; attempt 2 of 2, gave up (delivery failed)`,
    ]);
    // The request lines share the log, in the same columns.
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^${TIME} POST {3}/api/v1/\\S*bulk-transfer/process 202 `)),
    );
    for (const secret of SECRETS) expect(lines.join('\n')).not.toContain(secret);
    // The receiver did get the userinfo, as basic auth: only the log leaves it out.
    expect(receiver.received.at(-1)?.headers.authorization).toMatch(/^Basic /);
  });

  it('quiet (the default in code) keeps the warnings: failed attempts and a batch with an item that failed unexpectedly', async () => {
    const lines: string[] = [];
    const sandbox = await memorySandbox({ ...options, log: (line) => lines.push(line) });
    const { batch, deliveryId } = await run(sandbox, 1, 'shortage');
    expect(of(lines, 'webhook.attempt_failed')).toEqual([
      expect.stringContaining(`warn   webhook.attempt_failed ${deliveryId} to ${shownUrl()}: `),
      expect.stringContaining(`warn   webhook.attempt_failed ${deliveryId} to ${shownUrl()}: `),
    ]);
    expect(of(lines, 'batch.settled')).toEqual([
      expect.stringContaining(
        `warn   batch.settled ${batch.id} "Payroll": partially_completed, 1 completed, 1 failed (1 unexpectedly), in 1000 ms`,
      ),
    ]);
    expect(lines).toHaveLength(3);
  });
});

describe('what a scenario causes on purpose is info: a quiet run shows only what went wrong unexpectedly', () => {
  it('a batch whose items a scenario rule failed (a magic account) settles at info, in the root and in an isolated sandbox', async () => {
    const lines: string[] = [];
    const root = await memorySandbox({ ...options, log: (line) => lines.push(line) });
    const isolated = await root.isolate();
    for (const sandbox of [root, isolated]) {
      lines.length = 0;
      await run(sandbox, 1);
      // The receiver answering 500 is unexpected: its two attempts stay warnings, and they are all a quiet run shows.
      expect(lines.map((l) => l.slice(13, 20))).toEqual(['warn   ', 'warn   ']);
      expect(of(lines, 'webhook.attempt_failed')).toHaveLength(2);
    }
    const loud: string[] = [];
    const sandbox = await memorySandbox({ ...options, quiet: false, log: (line) => loud.push(line) });
    const { batch } = await run(sandbox, 1);
    expect(of(loud, 'batch.settled')).toEqual([
      expect.stringContaining(
        `info   batch.settled ${batch.id} "Payroll": partially_completed, 1 completed, 1 failed (1 by a scenario rule), in 1000 ms`,
      ),
    ]);
  });

  it('a batch with failures of both kinds warns, naming each count; JSON fields say them too', async () => {
    const lines: string[] = [];
    const sandbox = await memorySandbox({
      ...options,
      bulkItemDelay: 0,
      logFormat: 'json',
      log: (line) => lines.push(line),
    });
    // A small one to a magic account, then three: the balance covers the four amounts (so the batch starts) but,
    // with the fees, only two of the three.
    await setBalance(sandbox, A.a1.id, 3 * AMOUNT + 100);
    const batch = await bulk.create(sandbox, [
      ...bulk.transfers(1, { receiverAccountNumber: '0000000051', amount: 100 }),
      ...bulk.transfers(3),
    ]);
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    await sandbox.drain();
    const settled = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((o) => o.event === 'batch.settled');
    expect(settled).toEqual([
      expect.objectContaining({
        level: 'warn',
        batchId: batch.id,
        completedItems: 2,
        failedItems: 2,
        failedByScenario: 1,
        failedUnexpectedly: 1,
      }),
    ]);
  });

  it('a reprocess run reports its own failures: earlier ones were reported by the run that made them', async () => {
    const lines: string[] = [];
    const sandbox = await memorySandbox({
      ...options,
      bulkItemDelay: 0,
      quiet: false,
      log: (line) => lines.push(line),
    });
    // A small item to a magic account, and one the balance covers the amount of but not the fee.
    const batch = await bulk.create(sandbox, [
      ...bulk.transfers(1, { receiverAccountNumber: '0000000051', amount: 100 }),
      ...bulk.transfers(1),
    ]);
    await setBalance(sandbox, A.a1.id, AMOUNT + 100);
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    await sandbox.drain();
    // The shortage is unexpected: warn. Funded again, only the item that lacked money is reprocessed.
    expect(of(lines, 'batch.settled').at(-1)).toContain('warn   batch.settled');
    await setBalance(sandbox, A.a1.id, 100_000_000);
    const short = (await bulk.getBatch(sandbox, batch.id)).items.find(
      (i) => i.receiverAccountNumber !== '0000000051',
    );
    const again = await call(sandbox, 'POST', `/__sandbox/bulk-transfers/${batch.id}/reprocess`, {
      body: { itemId: short?.id },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    await sandbox.drain();
    // It completed: the magic account's failure is still the batch's, but no failure of this run is unexpected.
    expect(of(lines, 'batch.settled').at(-1)).toEqual(
      expect.stringContaining(
        `info   batch.settled ${batch.id} "Payroll": partially_completed, 1 completed, 1 failed, in `,
      ),
    );
  });

  it('attempts a scenario refused, and a delivery it dropped, are info lines naming the rule', async () => {
    const lines: string[] = [];
    const sandbox = await memorySandbox({ ...options, quiet: false, log: (line) => lines.push(line) });
    await sandbox.setScenario('webhook-receiver-down');
    const { deliveryId } = await run(sandbox, 0);
    expect(of(lines, 'webhook.attempt_failed').map((l) => l.slice(13))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^info {3}webhook\\.attempt_failed ${deliveryId} to .*: ECONNREFUSED: the receiver is down \\(scenario\\); attempt 1 of 2, next attempt at .* \\(sandbox clock\\) \\(scenario webhook-receiver-down, rule 0\\)$`,
        ),
      ),
      expect.stringMatching(
        /^info {3}webhook\.attempt_failed .*gave up \(delivery failed\) \(scenario webhook-receiver-down, rule 0\)$/,
      ),
    ]);
    await sandbox.setScenario({
      name: 'lossy',
      description: 'Loses every delivery',
      rules: [{ on: 'webhook', match: {}, effect: { webhook: 'drop' } }],
    });
    const { account } = await webhookSetup(sandbox, secretUrl(), {
      type: 'permanent',
      reference: 'log-drop',
    });
    const paid = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 50_000 });
    const dropped = dataOf(paid, paymentReceived).deliveryId;
    await sandbox.drain();
    expect(of(lines, 'webhook.dropped').map((l) => l.slice(13))).toEqual([
      `info   webhook.dropped ${dropped} to ${shownUrl()}: dropped, never sent (scenario lossy, rule 0)`,
    ]);
    for (const secret of SECRETS) expect(lines.join('\n')).not.toContain(secret);
  });

  it('quiet: a scenario that refuses every attempt and fails items on purpose writes nothing', async () => {
    const lines: string[] = [];
    const sandbox = await memorySandbox({ ...options, log: (line) => lines.push(line) });
    await sandbox.setScenario('webhook-receiver-down');
    await run(sandbox, 2);
    await sandbox.drain();
    expect(lines).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentReceived } from '../../../src/contract/control/incoming-payments.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import { bulkHelpers, processBatch } from '../../support/bulk.js';
import { startReceiver } from '../../support/receiver.js';
import { A, memorySandbox } from '../../support/sandbox.js';
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
 * a batch of two items of 1 s each, `failing` of which go to an account that fails; then one advance of a second.
 */
async function run(sandbox: Sandbox, failing: number) {
  await sandbox.clock.freeze(true);
  const frozenAt = sandbox.clock.now();
  const { account } = await webhookSetup(sandbox, secretUrl(), {
    type: 'permanent',
    reference: `log-${failing}`,
  });
  const paid = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 50_000 });
  expect(paid.status).toBe(201);
  const items = [
    ...bulk.transfers(2 - failing),
    ...bulk.transfers(failing, { receiverAccountNumber: '0000000051' }),
  ];
  const batch = await bulk.create(sandbox, items);
  expect((await processBatch(sandbox, batch.id)).status).toBe(202);
  await sandbox.clock.advance(1000);
  return { frozenAt, batch, deliveryId: dataOf(paid, paymentReceived).deliveryId };
}

const options = { webhookAttempts: 2, webhookRetryBase: 1000, bulkItemDelay: 1000 };

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

  it('quiet (the default in code) keeps the warnings: failed attempts and a batch with failed items', async () => {
    const lines: string[] = [];
    const sandbox = await memorySandbox({ ...options, log: (line) => lines.push(line) });
    const { batch, deliveryId } = await run(sandbox, 1);
    expect(of(lines, 'webhook.attempt_failed')).toEqual([
      expect.stringContaining(`warn   webhook.attempt_failed ${deliveryId} to ${shownUrl()}: `),
      expect.stringContaining(`warn   webhook.attempt_failed ${deliveryId} to ${shownUrl()}: `),
    ]);
    expect(of(lines, 'batch.settled')).toEqual([
      expect.stringContaining(
        `warn   batch.settled ${batch.id} "Payroll": partially_completed, 1 completed, 1 failed, in 1000 ms`,
      ),
    ]);
    expect(lines).toHaveLength(3);
  });
});

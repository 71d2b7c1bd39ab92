import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkTransferWithItems } from '../../src/contract/api/bulk.js';
import { virtualAccount } from '../../src/contract/api/virtual-accounts.js';
import { paymentReceived } from '../../src/contract/control/incoming-payments.js';
import { delivery } from '../../src/contract/control/webhooks.js';
import { dataOf } from '../support/answers.js';
import { BANK, BULK, keysA1, PROCESS, RECEIVER } from '../support/bulk.js';
import {
  http,
  ownerHeadersOf,
  type SandboxProcess,
  startProcess,
  stop,
  waitForOutput,
} from '../support/process.js';
import { startReceiver } from '../support/receiver.js';
import { A } from '../support/sandbox.js';

/*
 * One real process with --log-format json: its whole standard output is JSON, one object a line, the banner
 * included, and background work is in it (a batch's start and settlement, failed webhook attempts with when the
 * next is due), with no secret in any line.
 */

const CONTROL_TOKEN = 'ctl-t0ken-never-logged';
const HOOK_PASS = 'hook-p4ss';
const HOOK_TOKEN = 'q-s3cret';
const control = { 'x-sandbox-token': CONTROL_TOKEN };

let p: SandboxProcess;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver([], 500);
  p = await startProcess([
    '--in-memory',
    '--log-format',
    'json',
    '--control-token',
    CONTROL_TOKEN,
    '--webhook-attempts',
    '2',
    '--webhook-retry-base',
    '10',
  ]);
});
afterAll(async () => {
  await stop(p);
  await receiver.close();
});

describe('--log-format json', () => {
  it('prints only JSON lines: the banner, requests, batches and failed webhook attempts, without secrets', async () => {
    const headers = await ownerHeadersOf(p);
    const hookUrl = `${receiver.url.replace('http://', `http://hook-user:${HOOK_PASS}@`)}?token=${HOOK_TOKEN}`;
    const set = await http(p, 'PATCH', '/api/v1/clients/settings/update-webhook-url', {
      headers,
      body: { webhookUrl: hookUrl },
    });
    expect(set.status).toBe(200);
    const va = await http(p, 'POST', '/api/v1/clients/business/virtual-accounts', {
      headers,
      body: { firstName: 'Ada', lastName: 'Obi', type: 'permanent', reference: 'log-json-1' },
    });
    const { accountNumber } = dataOf(va, virtualAccount);
    const paid = await http(p, 'POST', '/__sandbox/incoming-payments', {
      headers: control,
      body: { accountNumber, amount: 50_000 },
    });
    const { deliveryId } = dataOf(paid, paymentReceived);
    const transfers = [1, 2].map((n) => ({
      amount: 100_000,
      receiverAccountNumber: RECEIVER,
      receiverBankCode: BANK,
      retrievalReference: `LOG-JSON-${n}`,
      narration: 'log test',
    }));
    const created = await http(p, 'POST', BULK, {
      headers: keysA1,
      body: { batchName: 'Payroll', transfers },
    });
    const batch = dataOf(created, bulkTransferWithItems);
    expect(
      (await http(p, 'POST', PROCESS, { headers: keysA1, body: { bulkTransferId: batch.id } })).status,
    ).toBe(202);
    expect((await http(p, 'POST', '/__sandbox/drain', { headers: control })).status).toBe(200);
    // Written in the turn after the work that logged them.
    await waitForOutput(p, /"event":"batch\.settled"/);
    await waitForOutput(p, /"gaveUp":true/);

    const lines = p
      .stdout()
      .split('\n')
      .filter((l) => l !== '');
    const objects = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const o of objects) expect(typeof o.time).toBe('string');

    expect(objects[0]).toMatchObject({
      level: 'info',
      event: 'listening',
      url: p.url,
      api: `${p.url}/api/v1`,
      state: { inMemory: true, file: null },
      control: `${p.url}/__sandbox`,
      controlTokenRequired: true,
      docs: `${p.url}/docs`,
      dashboard: `${p.url}/__sandbox/ui`,
    });
    expect(objects[0]?.clients).toContainEqual(
      expect.objectContaining({ clientId: A.id, email: A.owner.email, secretKey: A.secretKey }),
    );

    const events = (name: string) => objects.filter((o) => o.event === name);
    expect(events('batch.started')).toEqual([
      expect.objectContaining({
        level: 'info',
        batchId: batch.id,
        clientId: A.id,
        businessId: A.a1.id,
        batchName: 'Payroll',
        bulkReference: batch.bulkReference,
        totalItems: 2,
        queuedItems: 2,
        resumed: false,
      }),
    ]);
    expect(events('batch.settled')).toEqual([
      expect.objectContaining({
        level: 'info',
        batchId: batch.id,
        status: 'completed',
        completedItems: 2,
        failedItems: 0,
        sandboxDurationMs: expect.any(Number),
      }),
    ]);
    const shown = `${receiver.url.replace('http://', 'http://***@')}?token=***`;
    const [first, last] = events('webhook.attempt_failed');
    expect(first).toMatchObject({
      level: 'warn',
      deliveryId,
      url: shown,
      statusCode: 500,
      attempt: 1,
      maxAttempts: 2,
      nextAttemptAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      gaveUp: false,
      // The receiver answered 500 itself: no scenario rule behind it, so a warning.
      scenario: null,
    });
    expect(last).toMatchObject({ deliveryId, url: shown, attempt: 2, nextAttemptAt: null, gaveUp: true });
    // The second attempt was made when the first line said it would be due (on the sandbox clock).
    const record = dataOf(
      await http(p, 'GET', `/__sandbox/webhooks/deliveries/${deliveryId}`, { headers: control }),
      delivery,
    );
    expect(Date.parse(record.attempts[1]?.at ?? '')).toBeGreaterThanOrEqual(
      Date.parse(String(first?.nextAttemptAt)),
    );

    // Request lines are JSON as they were.
    expect(objects).toContainEqual(expect.objectContaining({ method: 'POST', path: PROCESS, status: 202 }));
    const out = p.stdout();
    for (const secret of [HOOK_PASS, 'hook-user', HOOK_TOKEN, A.webhookAuthKey, CONTROL_TOKEN])
      expect(out).not.toContain(secret);
    expect(p.stderr()).toBe('');
  });
});

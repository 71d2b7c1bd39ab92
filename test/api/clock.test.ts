import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryRecord } from '../../src/store/records.js';
import { startReceiver } from '../support/receiver.js';
import { A, call, memorySandbox, ownerHeaders, schemeB } from '../support/sandbox.js';
import { incomingPayment, openVirtualAccount, setWebhookUrl } from '../support/webhooks.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0)) await f();
});

describe('the virtual clock', () => {
  it('shows the time, advances and freezes it', async () => {
    const sandbox = await memorySandbox();
    const before = (await call(sandbox, 'GET', '/__sandbox/clock')).body.data as {
      now: string;
      frozen: boolean;
    };
    expect(before.frozen).toBe(false);
    const frozen = await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    expect(frozen.body.data).toMatchObject({ frozen: true });
    const at = Date.parse((frozen.body.data as { now: string }).now);
    const advanced = await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 3_600_000 } });
    expect(Date.parse((advanced.body.data as { now: string }).now)).toBe(at + 3_600_000);
    expect(Date.parse(before.now)).toBeLessThanOrEqual(at);
    const running = await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: { frozen: false } });
    expect(running.body.data).toMatchObject({ frozen: false });
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/__sandbox/clock')).body.data).toMatchObject({
      frozen: false,
      offsetMs: 0,
    });
  });

  it.each([[{ ms: -1 }], [{ ms: 1.5 }], [{ ms: 'soon' }], [{}]])('refuses to advance by %j', async (body) => {
    const sandbox = await memorySandbox();
    expect((await call(sandbox, 'POST', '/__sandbox/clock/advance', { body })).status).toBe(400);
  });

  it('expires an access token when the clock passes its lifetime', async () => {
    const sandbox = await memorySandbox({ tokenTtlSeconds: 600 });
    // Frozen on a whole second: the token's iat is whole seconds, and real time must not move under the test.
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    const at = Date.parse(
      ((await call(sandbox, 'GET', '/__sandbox/clock')).body.data as { now: string }).now,
    );
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 1000 - (at % 1000) } });
    const headers = await ownerHeaders(sandbox);
    const read = () => call(sandbox, 'GET', '/api/v1/clients/business/account-details', { headers });
    expect((await read()).status).toBe(200);
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 599_000 } });
    expect((await read()).status).toBe(200);
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 2_000 } });
    const expired = await read();
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe('Access token has expired');
  });

  it('expires a temporal virtual account when the clock passes its lifetime', async () => {
    const sandbox = await memorySandbox({ virtualAccountTtlSeconds: 1800 });
    const va = await openVirtualAccount(sandbox, await ownerHeaders(sandbox), 'temporal', 'clock-va');
    const { accountNumber } = va.body.data as { accountNumber: string };
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 1_801_000 } });
    const late = await incomingPayment(sandbox, { accountNumber, amount: 1000 });
    expect(late.status).toBe(409);
  });

  it('makes a webhook retry due at once when advanced past its backoff, with time frozen', async () => {
    const hook = await startReceiver([500]);
    cleanups.push(hook.close);
    // A minute of backoff: without the clock, drain would wait a minute.
    const sandbox = await memorySandbox({ webhookRetryBaseMs: 60_000 });
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    const headers = await ownerHeaders(sandbox);
    await setWebhookUrl(sandbox, headers, hook.url);
    const va = await openVirtualAccount(sandbox, headers, 'permanent', 'clock-hook');
    const { accountNumber } = va.body.data as { accountNumber: string };
    const paid = await incomingPayment(sandbox, { accountNumber, amount: 1000 });
    const { deliveryId } = paid.body.data as { deliveryId: string };
    expect((await call(sandbox, 'POST', '/__sandbox/drain?timeoutMs=300')).status).toBe(408);
    expect(hook.received).toHaveLength(1);

    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 60_000 } });
    expect((await call(sandbox, 'POST', '/__sandbox/drain?timeoutMs=5000')).status).toBe(200);
    const d = (await call(sandbox, 'GET', `/__sandbox/webhooks/deliveries/${deliveryId}`)).body
      .data as DeliveryRecord;
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
    expect(Date.parse(d.attempts[1]?.at ?? '') - Date.parse(d.attempts[0]?.at ?? '')).toBeGreaterThanOrEqual(
      60_000,
    );
  });

  it('holds bulk items processing through their delay until the clock moves', async () => {
    const sandbox = await memorySandbox({ bulkItemDelayMs: 30_000 });
    await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    const headers = schemeB(A.publicKey, A.secretKey, A.a1.id);
    const base = '/api/v1/clients/business/customers/funds/bulk-transfer';
    const transfers = [0, 1].map((i) => ({
      amount: 1000,
      receiverAccountNumber: '0123456789',
      receiverBankCode: '058',
      retrievalReference: `clock-${i}`,
      narration: 'clock',
    }));
    const created = await call(sandbox, 'POST', base, { headers, body: { batchName: 'Clock', transfers } });
    const { id } = created.body.data as { id: string };
    await call(sandbox, 'POST', `${base}/process`, { headers, body: { bulkTransferId: id } });
    expect((await call(sandbox, 'POST', '/__sandbox/drain?timeoutMs=200')).status).toBe(408);
    const during = (await call(sandbox, 'GET', `${base}/${id}`, { headers })).body.data as {
      items: { status: string }[];
    };
    expect(during.items.map((i) => i.status)).toEqual(['processing', 'processing']);
    await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 30_000 } });
    expect((await call(sandbox, 'POST', '/__sandbox/drain?timeoutMs=5000')).status).toBe(200);
    const after = (await call(sandbox, 'GET', `${base}/${id}`, { headers })).body.data as { status: string };
    expect(after.status).toBe('completed');
  });
});

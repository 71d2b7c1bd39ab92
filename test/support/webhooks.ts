import { expect } from 'vitest';
import { type VirtualAccountView, virtualAccount } from '../../src/contract/api/virtual-accounts.js';
import { type DeliveryView, delivery as deliverySchema } from '../../src/contract/control/webhooks.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox.js';
import { dataOf } from './answers.js';
import { call, ownerHeaders } from './sandbox.js';

/**
 * Fast webhook retries, so a test waits milliseconds, never the real backoff. The timeout guards against a receiver
 * that never answers, not a budget: the receivers here answer at once, if late on a busy machine.
 */
export const FAST: SandboxOptions = { webhookRetryBase: 5, webhookTimeout: 30_000 };

/** Sets the webhook URL of the client of `headers`; answers the response as it is. */
export function setWebhookUrl(sandbox: Sandbox, headers: Record<string, string>, webhookUrl: string) {
  return call(sandbox, 'PATCH', '/api/v1/clients/settings/update-webhook-url', {
    headers,
    body: { webhookUrl },
  });
}

/** Opens a virtual account for Ada Obi on the business of `headers`; answers the response as it is. */
export function openVirtualAccount(
  sandbox: Sandbox,
  headers: Record<string, string>,
  type: 'permanent' | 'temporal',
  reference: string,
) {
  return call(sandbox, 'POST', '/api/v1/clients/business/virtual-accounts', {
    headers,
    body: { firstName: 'Ada', lastName: 'Obi', type, reference },
  });
}

/**
 * Client A's owner with a webhook URL (none for null) and a virtual account of business A1; setting the URL must
 * answer 200 and opening the account 201.
 */
export async function webhookSetup(
  sandbox: Sandbox,
  webhookUrl: string | null,
  account: { type: 'permanent' | 'temporal'; reference: string },
): Promise<{ headers: Record<string, string>; account: VirtualAccountView }> {
  const headers = await ownerHeaders(sandbox);
  if (webhookUrl) {
    const set = await setWebhookUrl(sandbox, headers, webhookUrl);
    expect(set.status).toBe(200);
  }
  const va = await openVirtualAccount(sandbox, headers, account.type, account.reference);
  expect(va.status, JSON.stringify(va.body)).toBe(201);
  return { headers, account: dataOf(va, virtualAccount) };
}

/** An incoming payment through the control API; answers the response as it is. */
export function incomingPayment(sandbox: Sandbox, body: Record<string, unknown>) {
  return call(sandbox, 'POST', '/__sandbox/incoming-payments', { body });
}

/** A webhook delivery record; the read must answer 200. */
export async function delivery(sandbox: Sandbox, id: string): Promise<DeliveryView> {
  const res = await call(sandbox, 'GET', `/__sandbox/webhooks/deliveries/${id}`);
  expect(res.status).toBe(200);
  return dataOf(res, deliverySchema);
}

/** Resolves once the delivery has at least `n` attempts recorded: a store event, no polling. */
export function attemptsRecorded(sandbox: Sandbox, id: string, n: number): Promise<void> {
  const done = () => (sandbox.store.get('deliveries', id)?.attempts.length ?? 0) >= n;
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = sandbox.store.subscribe(() => {
      if (!done()) return;
      stop();
      resolve();
    });
  });
}

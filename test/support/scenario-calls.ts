import { expect } from 'vitest';
import type { BulkItemView, BulkTransferWithItemsView } from '../../src/contract/api/bulk.js';
import { paymentReceived } from '../../src/contract/control/incoming-payments.js';
import { activeScenario } from '../../src/contract/control/scenarios.js';
import type { Sandbox } from '../../src/sandbox.js';
import { dataOf } from './answers.js';
import { bulkHelpers, RECEIVER, type Transfer } from './bulk.js';
import { ledgerOf, transferEntry } from './money.js';
import { A, call } from './sandbox.js';
import { incomingPayment, webhookSetup } from './webhooks.js';

// What the scenario tests share: transfers of one amount, and what a refused, a passed or an outage answer is.

export const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
export const OUTAGE = 'Service temporarily unavailable';
export const AMOUNT = 100_000;
const SCENARIO = '/__sandbox/scenario';

type Headers = Record<string, string>;
type Response = Awaited<ReturnType<typeof call>>;

export const bulk = bulkHelpers({ label: 'scn', narration: 'Scenario test', batchName: 'Scenarios' });
export const { ref, create, getBatch, settle } = bulk;

/** A transfer of AMOUNT kobo to `account`, with a fresh retrieval reference. */
export function transfer(account = RECEIVER, overrides: Partial<Transfer> = {}): Transfer {
  return bulk.transfer({ amount: AMOUNT, receiverAccountNumber: account, ...overrides });
}

/** A transfer's answer, with what it was sent with: its reference and the business it was sent from. */
export type Sent = Response & { sandbox: Sandbox; reference: string; businessId: string };

export async function send(
  sandbox: Sandbox,
  headers: Headers,
  account = RECEIVER,
  extra: Headers = {},
  path = TRANSFER,
): Promise<Sent> {
  const body = transfer(account);
  const res = await call(sandbox, 'POST', path, { headers: { ...headers, ...extra }, body: { ...body } });
  return { ...res, sandbox, reference: body.retrievalReference, businessId: headers.businessId ?? A.a1.id };
}

/**
 * A refused transfer: 400 with the provider's message and nothing else (the docs' envelope, `data: null`); its
 * provider code is on its ledger entry, which is `failed`.
 */
export async function expectTransferFailed(res: Sent, errorCode: string, message?: string): Promise<void> {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'status']);
  expect(res.body).toMatchObject({ status: false, data: null });
  const entry = await transferEntry(res.sandbox, res.reference, res.businessId);
  expect(entry).toMatchObject({ status: 'failed', errorCode, errorMessage: res.body.message });
  if (message !== undefined) expect(res.body.message).toBe(message);
}

export function expectTransferOk(res: Response): void {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ status: true, message: 'Transfer successful' });
}

export function expectOutage(res: Response, status = 503, message = OUTAGE): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({ status: false, message, data: null });
}

export async function balanceOf(sandbox: Sandbox, businessId = A.a1.id): Promise<number> {
  return (await ledgerOf(sandbox, businessId)).balance;
}

export async function drain(sandbox: Sandbox, query = ''): Promise<Response> {
  return call(sandbox, 'POST', `/__sandbox/drain${query}`);
}

export function itemAt(batch: BulkTransferWithItemsView, index: number): BulkItemView {
  const item = batch.items.find((i) => i.itemIndex === index);
  if (!item) throw new Error(`batch ${batch.id} has no item ${index}`);
  return item;
}

export async function putScenario(sandbox: Sandbox, body: Record<string, unknown>): Promise<Response> {
  return call(sandbox, 'PUT', SCENARIO, { body });
}

/** Makes a whole scenario object active; it must be accepted. */
export async function useScenario(sandbox: Sandbox, rules: Record<string, unknown>[]): Promise<void> {
  const res = await putScenario(sandbox, { name: 'under-test', description: 'Made by a test', rules });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(dataOf(res, activeScenario).name).toBe('under-test');
}

/** Client A with a webhook URL and a permanent virtual account of business A1; answers its account number. */
export async function webhookAccount(sandbox: Sandbox, webhookUrl: string): Promise<string> {
  const { account } = await webhookSetup(sandbox, webhookUrl, { type: 'permanent', reference: ref('va') });
  return account.accountNumber;
}

/** An incoming payment to `accountNumber`; answers its delivery id. */
export async function pay(sandbox: Sandbox, accountNumber: string): Promise<string> {
  const res = await incomingPayment(sandbox, { accountNumber, amount: 250_000, accountName: 'Tunde Bakare' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return dataOf(res, paymentReceived).deliveryId;
}

import { expect } from 'vitest';
import fees from '../../fixtures/fees.json' with { type: 'json' };
import { accountDetails } from '../../src/contract/api/business.js';
import { type LedgerView, ledger } from '../../src/contract/control/money.js';
import { MAX_LONG_PAGE } from '../../src/domain/pagination.js';
import type { Sandbox } from '../../src/sandbox.js';
import { type Answered, dataOf } from './answers.js';
import { A, call } from './sandbox.js';

/** The magic receiver accounts, each with the errorCode and errorMessage a transfer to it fails with. */
export const MAGIC = [
  ['0000000051', '51', 'Insufficient Funds'],
  ['0000000007', '07', 'Invalid Account'],
  ['0000000091', '91', 'Beneficiary Bank not available'],
  ['0000000096', '96', 'System malfunction'],
] as const;

/** A maker of retrieval references `label-1`, `label-2`, …: one counter, unique within the file that makes it. */
export function references(defaultLabel: string): (label?: string) => string {
  let counter = 0;
  return (label = defaultLabel) => {
    counter += 1;
    return `${label}-${counter}`;
  };
}

/** The transfer fee of fixtures/fees.json for `amount` kobo. */
export function feeFor(amount: number): number {
  for (const tier of fees.transfer) if (tier.upTo === null || amount <= tier.upTo) return tier.fee;
  throw new Error('fees.json has no open-ended tier');
}

/**
 * A business's whole ledger, read a page at a time as the control API gives it (at most 1000 entries a page), as
 * one answer: every entry, newest first. `read` answers a control path, in the process or over HTTP.
 */
export async function wholeLedger(
  read: (path: string) => Promise<Answered>,
  businessId: string,
): Promise<LedgerView> {
  const pages: LedgerView[] = [];
  for (let page = 1; ; page++) {
    const res = await read(`/__sandbox/businesses/${businessId}/ledger?limit=${MAX_LONG_PAGE}&page=${page}`);
    expect(res.status).toBe(200);
    const answer = dataOf(res, ledger);
    pages.push(answer);
    if (!answer.pagination.hasNextPage) {
      return { ...answer, transactions: pages.flatMap((p) => p.transactions) };
    }
  }
}

/** The whole ledger of a business (A1 unless told), every page; the reads must answer 200. */
export async function ledgerOf(sandbox: Sandbox, businessId: string = A.a1.id): Promise<LedgerView> {
  return wholeLedger((path) => call(sandbox, 'GET', path), businessId);
}

/** A ledger entry, as the control API shows it. */
export type LedgerEntry = LedgerView['transactions'][number];

/**
 * The ledger entry of the transfer sent with `retrievalReference` (of A1 unless told): its `id` is the transaction
 * reference a dispute names, and a failed one keeps its `errorCode`. The transfer's answer carries neither.
 */
export async function transferEntry(
  sandbox: Sandbox,
  retrievalReference: string,
  businessId: string = A.a1.id,
): Promise<LedgerEntry> {
  const path = `/__sandbox/businesses/${businessId}/ledger?retrievalReference=${encodeURIComponent(retrievalReference)}`;
  const res = await call(sandbox, 'GET', path);
  expect(res.status).toBe(200);
  const [entry, ...more] = dataOf(res, ledger).transactions;
  if (!entry || more.length > 0)
    throw new Error(
      `expected one ledger entry for ${retrievalReference}, found ${more.length + (entry ? 1 : 0)}`,
    );
  return entry;
}

/** Sets the balance of a business through the control API; it must answer 200. */
export async function setBalance(sandbox: Sandbox, businessId: string, balance: number): Promise<void> {
  const res = await call(sandbox, 'PUT', `/__sandbox/businesses/${businessId}/balance`, {
    body: { balance },
  });
  expect(res.status).toBe(200);
}

/** The `accountBalance` that account-details shows to `headers`, a kobo string; the read must answer 200. */
export async function accountBalance(sandbox: Sandbox, headers: Record<string, string>): Promise<string> {
  const res = await call(sandbox, 'GET', '/api/v1/clients/business/account-details', { headers });
  expect(res.status).toBe(200);
  return dataOf(res, accountDetails).accountBalance;
}

import clients from '../../fixtures/clients.json' with { type: 'json' };
import roles from '../../fixtures/roles.json' with { type: 'json' };

// What the route definitions say beside their schemas: examples from the fixtures, and the causes of failure
// that several routes share.

const [clientA, clientB] = clients;
const [a1, a2] = clientA?.businesses ?? [];
const b1 = clientB?.businesses[0];
/** Client A's history in the fixtures: what the documents' examples of ids name. */
const history = {
  payout: clientA && 'payouts' in clientA ? clientA.payouts?.[0]?.id : undefined,
  audit: clientA && 'audits' in clientA ? clientA.audits?.[0]?.id : undefined,
  payments: a1 && 'payments' in a1 ? (a1.payments ?? []).map((p) => p.transactionReference) : [],
  dispute: a1 && 'disputes' in a1 ? a1.disputes?.[0]?.id : undefined,
  virtualAccount: a1 && 'virtualAccounts' in a1 ? a1.virtualAccounts?.[0]?.accountNumber : undefined,
  batch: a1 && 'bulkTransfers' in a1 ? a1.bulkTransfers?.[0] : undefined,
};

/** Values from `fixtures/clients.json`, for the documents' examples. */
export const fixture = {
  clientA: clientA?.id ?? '',
  owner: { email: clientA?.owner.email ?? '', password: clientA?.owner.password ?? '' },
  secretKey: clientA?.secretKey ?? '',
  publicKey: clientA?.publicKey ?? '',
  /** Approved, with a payment account and a balance. */
  a1: a1?.id ?? '',
  a1Account: a1?.accountNumber ?? '',
  /** Not approved yet. */
  a2: a2?.id ?? '',
  b1: b1?.id ?? '',
  viewerRole: roles.find((r) => r.name === 'Viewer')?.id ?? '',
  /** The Manager of client A, a member an update may change. */
  manager: clientA?.members.find((m) => m.role === 'Manager')?.id ?? '',
  /** Client A's payout account. */
  payout: history.payout ?? '',
  /** An audit entry of client A's. */
  audit: history.audit ?? '',
  /** A1's disputed payment, and one no dispute names (a dispute's example takes it). */
  disputedPayment: history.payments[0] ?? '',
  payment: history.payments[1] ?? '',
  /** A1's virtual account, which received the payments. */
  virtualAccount: history.virtualAccount ?? '',
  /** A1's open dispute. */
  dispute: history.dispute ?? '',
  /** A1's batch, `failed`, and its one item. */
  batch: history.batch?.id ?? '',
  batchItem: history.batch?.items[0]?.id ?? '',
};

export const transferExample = {
  amount: 150000,
  // A valid NUBAN at bank 058: the example gets no x-sandbox-warning.
  receiverAccountNumber: '0123456785',
  receiverBankCode: '058',
  retrievalReference: 'inv-2026-0001',
  narration: 'Invoice 2026-0001',
};

export const NO_PAYMENT_ACCOUNT_CAUSE = '`No payment account for this business` (not approved yet)';
export const PROVIDER_OUTAGE_CAUSE = '`Service temporarily unavailable` (scenario `provider-outage`)';

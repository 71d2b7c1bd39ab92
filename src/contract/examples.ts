import clients from '../../fixtures/clients.json' with { type: 'json' };
import roles from '../../fixtures/roles.json' with { type: 'json' };

// What the route definitions say beside their schemas: examples from the fixtures, and the causes of failure
// that several routes share.

const [clientA, clientB] = clients;
const [a1, a2] = clientA?.businesses ?? [];
const b1 = clientB?.businesses[0];

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

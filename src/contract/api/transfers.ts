import * as z from 'zod';
import { text } from '../../domain/fields.js';
import { NO_PAYMENT_ACCOUNT_CAUSE, PROVIDER_OUTAGE_CAUSE, transferExample } from '../examples.js';
import { contract, deferred, lazy, reply } from '../kit.js';
import { kobo } from '../wire.js';

const WHOLE_KOBO = 'must be a whole number of kobo';

/**
 * Kobo, as a JSON integer or a numeric string (normalised to a number), `min` to `max`. The bank's amounts have
 * no range (neither the spec nor the docs give one): their upper bound is only what a number holds exactly. The
 * bounds sit on both branches so that the document shows them; a number that is not whole fails both, and says so.
 */
export const koboAmount = (min: number, max = Number.MAX_SAFE_INTEGER) => {
  const bounded = () =>
    z
      .number()
      .int(WHOLE_KOBO)
      .min(min, `must be at least ${min} kobo`)
      .max(max, `must be at most ${max} kobo`);
  return z
    .union([bounded(), z.string().regex(/^\d+$/, WHOLE_KOBO).transform(Number).pipe(bounded())], {
      // Missing: `is required`, as every field says it (the shared wording of `parseInput`).
      error: (issue) => {
        if (issue.code !== 'invalid_union' || issue.input === undefined) return undefined;
        return typeof issue.input === 'number'
          ? WHOLE_KOBO
          : `${WHOLE_KOBO}: a JSON integer or a string of digits`;
      },
    })
    .describe(`kobo, ${min} to ${max}: a JSON integer or a string of digits`);
};

export const accountNumber = z.string().regex(/^\d{10}$/, 'must be 10 digits');

/**
 * How the documents show a bank code the bank's API takes: a string of digits (3-digit bank codes, 6-digit ones of
 * microfinance banks and mobile money operators), with examples; the sandbox takes the codes of its
 * `fixtures/banks.json` (`GET /clients/settings/billers` lists the billers among them).
 */
export const BANK_CODE_DOC = {
  pattern: '^[0-9]+$',
  examples: ['058', '044', '090267'],
  description:
    'a CBN/NIP bank code, a string of digits; the sandbox takes those of `fixtures/banks.json` (else 400 `Invalid bank code`)',
};
/** A bank code's form, where the sandbox's own API takes one (a payer's bank). */
export const bankCode = z.string().regex(/^\d{3}$|^\d{6}$/, 'must be a 3- or 6-digit bank code');

/**
 * A bank code the service checks against the fixtures' bank list: any text that is not one (of whatever length or
 * form) is 400 `Invalid bank code`, the one answer the contract gives. The list is data, not schema (contract,
 * section 3): the documents type a bank code as a string of digits with examples, never as an enum of the fixtures'
 * codes, so that a client generated from them takes any code the real bank takes.
 */
export const listedBankCode = text().meta(BANK_CODE_DOC);

/** The least a transfer moves: one kobo (neither the spec nor the docs give a range). */
export const MIN_TRANSFER = 1;

export const transferBody = deferred(() =>
  z.object({
    amount: koboAmount(MIN_TRANSFER),
    receiverAccountNumber: accountNumber,
    receiverBankCode: listedBankCode,
    retrievalReference: text(),
    narration: text(),
  }),
);
export type TransferInput = z.infer<ReturnType<typeof transferBody>>;

// What the routes answer.

export const transferResult = lazy('TransferResult', () =>
  z.strictObject({
    amount: kobo(),
    transactionCharge: kobo(),
    totalAmount: kobo().describe('kobo: amount plus charge, the amount debited'),
  }),
);
export type TransferResultView = z.infer<ReturnType<typeof transferResult>>;

const FUNDS = '/clients/business/customers/funds';

const TAG = 'Transfers';

const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;

/** The customer and the anonymous transfer take the same body and answer alike; only the ledger kind differs. */
const responses = {
  200: reply('Transfer successful', transferResult),
  400: [
    '`Invalid bank code`',
    NO_PAYMENT_ACCOUNT_CAUSE,
    "A failed transfer: the provider's message (`Insufficient Funds`; the magic receiver accounts `0000000051`, `0000000007`, `0000000091`, `0000000096`), `data: null`; nothing is debited. Its `errorCode` and references are on its ledger entry (`GET /__sandbox/businesses/{id}/ledger?retrievalReference=…`)",
  ],
  409: '`Duplicate retrievalReference: it was used for a different transfer`',
  503: PROVIDER_OUTAGE_CAUSE,
} as const;

/** What production refuses in a transfer the sandbox accepts. */
export const RECEIVER_ACCOUNT_WARNING =
  'a `receiverAccountNumber` whose NUBAN check digit is wrong for `receiverBankCode`: production would not find the account and the transfer would fail';

export const transferContract = contract({
  operationId: 'transfer',
  method: 'post',
  path: `${FUNDS}/transfer`,
  summary: 'Transfer funds',
  description:
    'Debits `amount + transactionCharge` (the NIP fee tier). `retrievalReference` is the idempotency key per business, shared with the anonymous transfer: the same body again answers the first response and debits nothing more. The answer is exactly the docs’ three amounts; the transfer’s `transactionReference` (a dispute’s `transactionId`) is on its ledger entry under `/__sandbox`.',
  tag: TAG,
  auth: withBusiness,
  source: {
    spec: 'Customer funds transfer',
    docs: ['/api-reference/funds/customer-transfer'],
    sandbox:
      'the fee tiers, the idempotency of `retrievalReference` (409 for another body), the magic accounts',
  },
  body: transferBody,
  example: transferExample,
  warns: [RECEIVER_ACCOUNT_WARNING],
  responses,
});

export const anonymousTransferContract = contract({
  operationId: 'anonymousTransfer',
  method: 'post',
  path: `${FUNDS}/anonymous-transfer`,
  summary: 'Anonymous transfer',
  description:
    'The same body, rules and answers as the transfer (the docs leave its answer undocumented: the sandbox answers as the transfer does).',
  tag: TAG,
  auth: withBusiness,
  source: {
    spec: 'Anonymous transfer',
    docs: ['/api-reference/funds/anonymous-transfer'],
    sandbox: 'the answer, the same as the customer funds transfer’s',
  },
  body: transferBody,
  example: { ...transferExample, retrievalReference: 'anon-2026-0001' },
  warns: [RECEIVER_ACCOUNT_WARNING],
  responses,
});

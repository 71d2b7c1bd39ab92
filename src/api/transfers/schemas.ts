import * as z from 'zod';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import { text } from '../../domain/fields.js';
import { lazy } from '../../http/route.js';
import { kobo } from '../../http/wire.js';

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
/** A bank code's form, where the sandbox's own API takes one (a payer's bank). */
export const bankCode = z.string().regex(/^\d{3}$|^\d{6}$/, 'must be a 3- or 6-digit bank code');

/**
 * A bank code the service checks against the fixtures' bank list: any text that is not one (of whatever length or
 * form) is 400 `Invalid bank code`, the one answer the contract gives. The list is documented from the embedded
 * `fixtures/banks.json`; the check reads the fixtures the sandbox loaded.
 */
export const listedBankCode = text().meta({
  enum: banks.banks.map((bank) => bank.code),
  description: 'a CBN/NIP code of `fixtures/banks.json` (else 400 `Invalid bank code`)',
});

/** The least a transfer moves: one kobo (neither the spec nor the docs give a range). */
export const MIN_TRANSFER = 1;

export const transferBody = z.object({
  amount: koboAmount(MIN_TRANSFER),
  receiverAccountNumber: accountNumber,
  receiverBankCode: listedBankCode,
  retrievalReference: text(),
  narration: text(),
});
export type TransferInput = z.infer<typeof transferBody>;

// What the routes answer.

export const transferResult = lazy('TransferResult', () =>
  z.strictObject({
    amount: kobo(),
    transactionCharge: kobo(),
    totalAmount: kobo().describe('kobo: amount plus charge, the amount debited'),
  }),
);
export type TransferResultView = z.infer<ReturnType<typeof transferResult>>;

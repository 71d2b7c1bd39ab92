import * as z from 'zod';

/** Kobo, as a JSON integer or a numeric string (normalised to a number). */
export const koboAmount = (min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number of kobo').transform(Number)])
    .pipe(
      z
        .number()
        .int('must be a whole number of kobo')
        .min(min, `must be at least ${min} kobo`)
        .max(max, `must be at most ${max} kobo`),
    );

export const accountNumber = z.string().regex(/^\d{10}$/, 'must be 10 digits');
export const bankCode = z.string().regex(/^\d{3}$|^\d{6}$/, 'must be a 3- or 6-digit bank code');

export const MIN_TRANSFER = 100;
export const MAX_TRANSFER = 1_000_000_000;

export const transferBody = z.object({
  amount: koboAmount(MIN_TRANSFER, MAX_TRANSFER),
  receiverAccountNumber: accountNumber,
  receiverBankCode: bankCode,
  retrievalReference: z.string().trim().min(1).max(64),
  narration: z.string().trim().min(1).max(200),
});
export type TransferInput = z.infer<typeof transferBody>;

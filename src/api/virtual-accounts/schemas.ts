import * as z from 'zod';
import { text } from '../../domain/fields.js';
import { virtualAccountType } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';
import { koboAmount } from '../transfers/schemas.js';

export const virtualAccountBody = z.object({
  firstName: text(),
  lastName: text(),
  type: virtualAccountType,
  reference: text(),
});
export type VirtualAccountInput = z.infer<typeof virtualAccountBody>;

/** The longest a single-use account may stay open: what the clock can hold, about 285 000 years. */
export const MAX_DURATION_SECONDS = 9_000_000_000_000;

/** All five required (docs): `amount` in kobo, `duration` in seconds. */
export const singleUseBody = z.object({
  firstName: text(),
  lastName: text(),
  refCode: text(),
  amount: koboAmount(1),
  duration: z
    .number()
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1 second')
    .max(MAX_DURATION_SECONDS, `must be at most ${MAX_DURATION_SECONDS} seconds`)
    .describe('seconds until the account expires, on the sandbox clock'),
});
export type SingleUseInput = z.infer<typeof singleUseBody>;

// What the routes answer.

/** A multi-use account, exactly as the docs show it. */
export const virtualAccount = lazy('VirtualAccount', () =>
  z.strictObject({
    accountNumber: z.string(),
    accountName: z.string().describe('`firstName lastName` as given'),
    clientRef: z.string().describe('the `reference` given'),
    systemRef: z.string().describe('`STL|` and 14 letters and digits'),
  }),
);
export type VirtualAccountView = z.infer<ReturnType<typeof virtualAccount>>;

/** A single-use account, exactly as the docs show it (their names differ from the multi-use account's). */
export const singleUseAccount = lazy('SingleUseVirtualAccount', () =>
  z.strictObject({
    accountNumber: z.string(),
    accountName: z.string().describe('`firstName lastName` as given'),
    clientReference: z.string().describe('the `refCode` given'),
    systemReference: z.string().describe('`STL|` and 14 letters and digits'),
    reservedAmount: z.number().int().describe('kobo: the one amount the account takes'),
    expiresAt: isoDate().describe(
      'when it expires unless paid first: now plus `duration`, on the sandbox clock',
    ),
  }),
);
export type SingleUseAccountView = z.infer<ReturnType<typeof singleUseAccount>>;

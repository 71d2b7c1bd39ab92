import * as z from 'zod';
import { controlPageQuery } from '../../domain/pagination.js';
import { virtualAccountRecord } from '../../domain/records.js';
import { virtualAccountState } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';

// Every client's virtual accounts: where an incoming payment can go.

export const virtualAccountsQuery = controlPageQuery;

// What the route answers.

/** A virtual account with its client and business; `expiresAt` ISO 8601 (the record keeps ms), null if permanent. */
export const virtualAccount = lazy('VirtualAccountRecord', () =>
  z.strictObject({
    ...virtualAccountRecord.shape,
    createdAt: isoDate(),
    expiresAt: isoDate().nullable().describe('temporal and single-use accounts only'),
    state: virtualAccountState.describe(
      '`open` takes a payment; `used`: a single-use account that took its one payment; `expired`: past `expiresAt`',
    ),
  }),
);
export type VirtualAccountView = z.infer<ReturnType<typeof virtualAccount>>;

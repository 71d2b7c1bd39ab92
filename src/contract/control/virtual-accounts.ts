import * as z from 'zod';
import { controlPageQuery } from '../../domain/pagination.js';
import { virtualAccountRecord } from '../../domain/records.js';
import { virtualAccountState } from '../../domain/statuses.js';
import { contract, lazy, page } from '../kit.js';
import { isoDate } from '../wire.js';

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

export const listVirtualAccountsContract = contract({
  operationId: 'listVirtualAccounts',
  method: 'get',
  path: '/virtual-accounts',
  summary: 'Virtual accounts of every client',
  description:
    'Newest first: where `POST /incoming-payments` can send money. `expiresAt` is ISO 8601 text, null for a permanent account.',
  tag: 'Webhooks',
  auth: { scheme: 'none' },
  query: virtualAccountsQuery,
  responses: { 200: page('Virtual accounts', virtualAccount) },
});

import * as z from 'zod';
import { pageQuery } from '../../domain/pagination.js';
import { lazy } from '../../http/route.js';
import { virtualAccountRecord } from '../../store/records.js';

// Every client's virtual accounts: where an incoming payment can go.

export const virtualAccountsQuery = pageQuery;

// What the route answers.

/** A virtual account as it is kept (`expiresAt` in ms since the epoch, null for a permanent one). */
export const virtualAccount = lazy('VirtualAccountRecord', () => z.strictObject(virtualAccountRecord.shape));
export type VirtualAccountView = z.infer<ReturnType<typeof virtualAccount>>;

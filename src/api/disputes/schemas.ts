import * as z from 'zod';
import { pageQuery } from '../../domain/pagination.js';
import { disputeStatus } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';

export const disputeBody = z.object({
  transactionId: z.string().trim().min(1).max(64),
  description: z.string().trim().min(3).max(1000),
});

export const disputeQuery = pageQuery.extend({
  transactionId: z.string().trim().min(1).max(64).optional(),
  status: disputeStatus.optional(),
  keyword: z.string().trim().min(1).max(100).optional(),
});
export type DisputeQuery = z.infer<typeof disputeQuery>;

// What the routes answer (the control API's resolve and reject too: a decided dispute looks the same).

export const dispute = lazy('Dispute', () =>
  z.strictObject({
    id: z.string(),
    transactionId: z.string(),
    description: z.string(),
    status: disputeStatus,
    createdAt: isoDate(),
    resolvedAt: isoDate().nullable(),
  }),
);
export type DisputeView = z.infer<ReturnType<typeof dispute>>;

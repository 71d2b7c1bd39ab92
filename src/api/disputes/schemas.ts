import * as z from 'zod';
import { pageQuery } from '../../domain/pagination.js';

export const disputeBody = z.object({
  transactionId: z.string().trim().min(1).max(64),
  description: z.string().trim().min(3).max(1000),
});

export const disputeQuery = pageQuery.extend({
  transactionId: z.string().trim().min(1).max(64).optional(),
  status: z.enum(['open', 'resolved', 'rejected']).optional(),
  keyword: z.string().trim().min(1).max(100).optional(),
});
export type DisputeQuery = z.infer<typeof disputeQuery>;

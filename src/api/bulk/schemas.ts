import * as z from 'zod';
import { pageQuery } from '../../domain/pagination.js';
import { transferBody } from '../transfers/schemas.js';

export const MAX_BATCH_ITEMS = 10_000;

export const createBulkBody = z.object({
  batchName: z.string().trim().min(1).max(100),
  transfers: z.array(transferBody).min(1).max(MAX_BATCH_ITEMS),
});
export type CreateBulkInput = z.infer<typeof createBulkBody>;

const bulkTransferId = z.uuid('must be a valid UUID');

export const processBody = z.object({ bulkTransferId });
export const reprocessBody = z.object({
  bulkTransferId,
  itemId: z.string().trim().min(1).max(64).optional(),
});

export const bulkListQuery = pageQuery;

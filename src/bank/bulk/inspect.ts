import type {
  BatchesQuery,
  ClientBulkTransferView,
  ClientBulkTransferWithItemsView,
} from '../../contract/control/bulk-transfers.js';
import type { Deps } from '../../deps.js';
import { operator } from '../../domain/actor.js';
import { ApiError } from '../../domain/errors.js';
import { type Pagination, paginate } from '../../domain/pagination.js';
import type { BulkProcessor } from '../../engine/bulk-processor.js';
import { batchView, type ClaimOutcome, fullView, reprocessBulk } from './service.js';

/** Every client's batches, newest first, of one status or client if asked. */
export function listBatches(
  deps: Pick<Deps, 'store'>,
  query: BatchesQuery,
): { data: ClientBulkTransferView[]; pagination: Pagination } {
  const matching = deps.store
    .all('bulkTransfers')
    .filter(
      (b) =>
        (query.status === undefined || b.status === query.status) &&
        (query.clientId === undefined || b.clientId === query.clientId),
    )
    .reverse();
  return paginate(matching, query, (b) => ({
    ...batchView(b),
    clientId: b.clientId,
    requestId: b.requestId,
  }));
}

/** One batch of any client, with its items. */
export function getBatch(deps: Deps, id: string): ClientBulkTransferWithItemsView {
  const batch = deps.store.get('bulkTransfers', id);
  if (!batch) throw new ApiError(404, 'Bulk transfer not found');
  const full = fullView(deps, batch);
  // The bank's views keep a reversed item `completed` (its docs have no reversed status): the back office sees it.
  const items = full.items.map((item) => {
    const entry = deps.store.get('transactions', item.transactionReference);
    if (entry?.reversedAt === undefined) return item;
    return { ...item, reversedAt: entry.reversedAt, reversalReason: entry.reversalReason ?? '' };
  });
  return { ...full, items, clientId: batch.clientId, requestId: batch.requestId };
}

/**
 * The API's reprocess, without the client's keys: every failed item of the batch, or the one `itemId`. The audit
 * log names the sandbox operator.
 */
export async function reprocessBatch(
  deps: Deps,
  bulk: BulkProcessor,
  id: string,
  itemId: string | undefined,
): Promise<ClaimOutcome> {
  const batch = deps.store.get('bulkTransfers', id);
  const business = batch && deps.store.get('businesses', batch.businessId);
  if (!batch || !business) throw new ApiError(404, 'Bulk transfer not found');
  return reprocessBulk(deps, bulk, operator(batch.clientId), business, batch.id, itemId);
}

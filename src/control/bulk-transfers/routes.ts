import { getBatch, listBatches, reprocessBatch } from '../../bank/bulk/inspect.js';
import { claimAnswer } from '../../bank/bulk/service.js';
import {
  getBatchContract,
  listBatchesContract,
  reprocessBatchContract,
} from '../../contract/control/bulk-transfers.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';

/** `/bulk-transfers`: every client's batches, read and reprocessed without the client's keys. */
export const bulkTransferRoutes: Route<ControlRuntime>[] = [
  route(listBatchesContract, ({ deps, query }) => ({ page: listBatches(deps, query) })),
  route(getBatchContract, ({ deps, params }) => ({ data: getBatch(deps, params.id) })),
  route(reprocessBatchContract, async ({ deps, engines, params, body }) =>
    claimAnswer(params.id, await reprocessBatch(deps, engines.bulk, params.id, body.itemId)),
  ),
];

import {
  claimAnswer,
  createBulk,
  getBulk,
  listBulk,
  processBulk,
  reprocessBulk,
} from '../../bank/bulk/service.js';
import {
  createBulkTransferContract,
  getBulkTransferContract,
  listBulkTransfersContract,
  processBulkTransferContract,
  reprocessBulkTransferContract,
} from '../../contract/api/bulk.js';
import { bulkNubanWarning } from '../../domain/stricter-in-production.js';
import type { Route } from '../../http/route.js';
import { warn } from '../../http/warnings.js';
import { type ApiRuntime, route } from '../runtime.js';

/** `/clients/business/customers/funds/bulk-transfer`: batches, with the API key pair (scheme B). */
export const bulkRoutes: Route<ApiRuntime>[] = [
  route(createBulkTransferContract, async ({ deps, c, actor, business, body }) => {
    warn(c, bulkNubanWarning(body.transfers));
    return { status: 201, data: await createBulk(deps, actor(), business, body, c.env.facts.requestId) };
  }),
  route(listBulkTransfersContract, ({ deps, business, query }) => ({
    page: listBulk(deps, business, query),
  })),
  route(processBulkTransferContract, async ({ deps, engines, actor, business, body }) =>
    claimAnswer(
      body.bulkTransferId,
      await processBulk(deps, engines.bulk, actor(), business, body.bulkTransferId),
    ),
  ),
  route(reprocessBulkTransferContract, async ({ deps, engines, actor, business, body }) =>
    claimAnswer(
      body.bulkTransferId,
      await reprocessBulk(deps, engines.bulk, actor(), business, body.bulkTransferId, body.itemId),
    ),
  ),
  route(getBulkTransferContract, ({ deps, business, params }) => ({
    data: getBulk(deps, business, params.bulkTransferId),
  })),
];

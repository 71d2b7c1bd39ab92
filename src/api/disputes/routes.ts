import { createDispute, getDispute, listDisputes } from '../../bank/disputes/service.js';
import {
  createDisputeContract,
  getDisputeContract,
  listDisputesContract,
} from '../../contract/api/disputes.js';
import type { Route } from '../../http/route.js';
import { type ApiRuntime, route } from '../runtime.js';

/** `/clients/business/disputes`. */
export const disputeRoutes: Route<ApiRuntime>[] = [
  route(createDisputeContract, async ({ deps, actor, business, body }) => {
    await createDispute(deps, actor(), business, body);
    return { status: 201 };
  }),
  route(listDisputesContract, ({ deps, business, query }) => ({ page: listDisputes(deps, business, query) })),
  route(getDisputeContract, ({ deps, business, params }) => ({
    data: getDispute(deps, business, params.disputeId),
  })),
];

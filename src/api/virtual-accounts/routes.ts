import { createSingleUseAccount, createVirtualAccount } from '../../bank/virtual-accounts/service.js';
import {
  createSingleUseVirtualAccountContract,
  createVirtualAccountContract,
} from '../../contract/api/virtual-accounts.js';
import type { Route } from '../../http/route.js';
import { type ApiRuntime, route } from '../runtime.js';

/** `/clients/business/virtual-accounts`: accounts that receive payments for the business. */
export const virtualAccountRoutes: Route<ApiRuntime>[] = [
  route(createVirtualAccountContract, async ({ deps, actor, business, body }) => ({
    status: 201,
    data: await createVirtualAccount(deps, actor(), business, body),
  })),
  route(createSingleUseVirtualAccountContract, async ({ deps, actor, business, body }) => ({
    status: 201,
    data: await createSingleUseAccount(deps, actor(), business, body),
  })),
];

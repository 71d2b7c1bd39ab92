import {
  createSingleUseAccount,
  createVirtualAccount,
  listSuspenseTransactions,
} from '../../bank/virtual-accounts/service.js';
import {
  createSingleUseVirtualAccountContract,
  createVirtualAccountContract,
  listSuspenseTransactionsContract,
} from '../../contract/api/virtual-accounts.js';
import type { Route } from '../../http/route.js';
import { type ApiRuntime, route } from '../runtime.js';

/**
 * `/clients/business/virtual-accounts`: accounts that receive payments for the business; `virtual-account`: the
 * payments they received (the suspense account).
 */
export const virtualAccountRoutes: Route<ApiRuntime>[] = [
  route(createVirtualAccountContract, async ({ deps, actor, business, body }) => ({
    status: 201,
    data: await createVirtualAccount(deps, actor(), business, body),
  })),
  route(createSingleUseVirtualAccountContract, async ({ deps, actor, business, body }) => ({
    status: 201,
    data: await createSingleUseAccount(deps, actor(), business, body),
  })),
  route(listSuspenseTransactionsContract, ({ deps, business, query }) => ({
    page: listSuspenseTransactions(deps, business, query),
  })),
];

import { listVirtualAccounts } from '../../bank/virtual-accounts/inspect.js';
import { listVirtualAccountsContract } from '../../contract/control/virtual-accounts.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';

/** `/virtual-accounts`: where `POST /incoming-payments` can send money. */
export const virtualAccountRoutes: Route<ControlRuntime>[] = [
  route(listVirtualAccountsContract, ({ deps, query }) => ({ page: listVirtualAccounts(deps, query) })),
];

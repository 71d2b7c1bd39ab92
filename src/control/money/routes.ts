import { approve, ledgerOf, setBalance } from '../../bank/balances/service.js';
import { approveBusinessContract, ledgerContract, setBalanceContract } from '../../contract/control/money.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';

/** `/businesses/{id}/…`: a business's balance, approval and ledger. */
export const moneyRoutes: Route<ControlRuntime>[] = [
  route(setBalanceContract, async ({ deps, params, body }) => ({
    data: await setBalance(deps, params.id, body.balance),
  })),
  route(approveBusinessContract, async ({ deps, params }) => ({ data: await approve(deps, params.id) })),
  route(ledgerContract, ({ deps, params, query }) => ({ data: ledgerOf(deps, params.id, query) })),
];
